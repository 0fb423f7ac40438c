export const worker = true;
