export const unused = true;
