export const scenario = true;
