// @vitest-environment node
import { describeUploads } from '../../test/upload-scenario.js';

describeUploads('node');
