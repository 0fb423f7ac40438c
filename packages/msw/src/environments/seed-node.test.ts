// @vitest-environment node
import { describeSeed } from './seed-scenario.js';

describeSeed('node');
