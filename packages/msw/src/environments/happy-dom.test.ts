// @vitest-environment happy-dom
import { describeUploads } from '../../test/upload-scenario.js';

describeUploads('happy-dom');
