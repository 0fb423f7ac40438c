// @vitest-environment happy-dom
import { describeSeed } from '../../test/seed-scenario.js';

describeSeed('happy-dom');
