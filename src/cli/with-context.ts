// Runs one command against a freshly built context (database opened and migrated), closing it afterwards.
import type { Config } from '../config.ts';
import { createContext, createLogger } from '../context.ts';

export type CommandContext = Awaited<ReturnType<typeof createContext>>;

export async function withContext<T>(config: Config, fn: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const ctx = await createContext(config, { logger: createLogger({ ...config, logLevel: 'warn' }) });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
