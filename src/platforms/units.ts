// Byte sizes for the networks' media rules.
export const MB = 1024 * 1024;
export const GB = 1024 * MB;
