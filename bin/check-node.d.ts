// Types of bin/check-node.js (plain JavaScript so that an old Node can run it).
export function requiredVersion(): [number, number, number];
export function nodeVersionProblem(found: string, required?: [number, number, number]): string | null;
