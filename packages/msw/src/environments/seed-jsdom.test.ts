// @vitest-environment jsdom
import { describeSeed } from '../../test/seed-scenario.js';

describeSeed('jsdom');
