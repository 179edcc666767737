// Argument helpers shared by the tools: a list a model gives (an array or one comma-separated string), and networks
// named by a model, parsed as REST parses them (platforms/arguments.ts).
import { z } from 'zod';
import type { ToolServices } from './services.ts';
import { parsePlatforms, splitPlatforms } from '../platforms/arguments.ts';
import type { Platform } from '../platforms/slugs.ts';

/** A list argument: an array of strings, or one comma-separated string (models send both). */
export const stringList = z.union([z.array(z.string().max(500)).max(100), z.string().max(5000)]);

/** Network slugs (lower-cased), refused when unknown, in the REST wording. */
export function platformList(app: ToolServices, values: string[]): Platform[] {
  return parsePlatforms(app.platforms, splitPlatforms(values));
}
