export { a } from './steps/a.js';

export const worker = new URL('./worker.js', import.meta.url);
export const scenarios = new URL('./scenarios', import.meta.url);
