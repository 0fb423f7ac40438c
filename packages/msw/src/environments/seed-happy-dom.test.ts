// @vitest-environment happy-dom
import { describeSeed } from './seed-scenario.js';

describeSeed('happy-dom');
