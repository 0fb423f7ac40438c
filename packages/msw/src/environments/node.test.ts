// @vitest-environment node
import { describeUploads } from './upload-scenario.js';

describeUploads('node');
