// @vitest-environment jsdom
import { describeSeed } from './seed-scenario.js';

describeSeed('jsdom');
