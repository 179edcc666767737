// What a caller sent comes back at most 100 characters long on every tool surface, as in REST answers:
// MCP tool errors, GPT Actions and the agent's tool errors share the wire body's truncation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { errorText, unknownToolText } from '../../src/tools/errors.ts';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { listenOnLoopback } from '../helpers/net.ts';
import { mcpClient, textOf } from './helpers.ts';

const HUGE = 'p'.repeat(900 * 1024);
const CUT = `'${'p'.repeat(100)}…'`;
let h: Harness;
let key: string;
let base: string;
beforeAll(async () => {
  h = await createHarness();
  key = await h.createKey(await h.signup());
  base = await listenOnLoopback(h.app);
});
afterAll(() => h.close());

describe('echoed input on the tool surfaces', () => {
  it('an MCP tool error quotes a 900 KB platform name cut to 100 characters', async () => {
    const c = await mcpClient(`${base}/mcp`, { 'x-api-key': key });
    try {
      const res = await c.call('get_accounts', { platform: HUGE });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain(`Invalid or unsupported platform: ${CUT}`);
      expect(textOf(res).length).toBeLessThan(1000);
      const unknown = (await c.call(HUGE).then(
        () => new Error('no error'),
        (e: unknown) => e,
      )) as Error;
      expect(unknown.message).toContain(`Unknown tool: ${CUT}`);
      expect(unknown.message.length).toBeLessThan(1000);
    } finally {
      await c.close();
    }
  });

  it('the GPT Actions cut it the same way', async () => {
    const res = await h.req({
      method: 'POST',
      url: '/unified/gpt-actions/get_accounts',
      headers: { authorization: `Bearer ${key}` },
      payload: { platform: HUGE },
    });
    expect(res.json().message).toContain(`Invalid or unsupported platform: ${CUT}`);
    expect(res.body.length).toBeLessThan(1000);
  });

  it("the agent's tool errors (the same text functions) too", () => {
    const field = new AppError('validation', [
      { loc: ['platform'], msg: `Unknown network '${HUGE}'`, type: 'value_error' },
    ]);
    expect(errorText(field)).toBe(`platform: Unknown network ${CUT}`);
    expect(errorText(new AppError('bad_gateway', { error: 'X', message: `refused '${HUGE}'` }))).toBe(`refused ${CUT}`);
    expect(unknownToolText(HUGE)).toBe(`Unknown tool: ${CUT}`);
  });
});
