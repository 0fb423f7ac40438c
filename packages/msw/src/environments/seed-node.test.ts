// @vitest-environment node
import { describeSeed } from '../../test/seed-scenario.js';

describeSeed('node');
