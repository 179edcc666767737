// Herald's version: the package's, read once.
import { readFileSync } from 'node:fs';

const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export function heraldVersion(): string {
  return PACKAGE.version;
}
