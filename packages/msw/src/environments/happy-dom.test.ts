// @vitest-environment happy-dom
import { describeUploads } from './upload-scenario.js';

describeUploads('happy-dom');
