import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  applyEvent,
  createEventParser,
  initialTurn,
  mayHaveHeld,
} from '../../web/src/pages/agent/stream.ts';

function parse(chunks: string[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  const p = createEventParser((e) => out.push(e));
  for (const c of chunks) p.push(c);
  p.end();
  return out;
}

const body = [
  'event: delta\ndata: {"text":"Hel"}\n\n',
  'event: delta\ndata: {"text":"lo"}\n\n',
  'event: tool_call\ndata: {"name":"get_accounts","args":{}}\n\n',
  'event: tool_result\ndata: {"name":"get_accounts","success":true,"summary":"2 accounts"}\n\n',
  'event: answer\ndata: {"success":true,"agent_response_json":"{}","parsed":{"response":"Hello"}}\n\n',
].join('');

describe('agent event stream parser', () => {
  it('reads whole events in order', () => {
    const events = parse([body]);
    expect(events.map((e) => e.event)).toEqual(['delta', 'delta', 'tool_call', 'tool_result', 'answer']);
    expect(events[0]).toEqual({ event: 'delta', data: { text: 'Hel' } });
  });

  it('gives the same events whatever the chunk boundaries are', () => {
    const whole = parse([body]);
    for (const size of [1, 2, 3, 7, 13]) {
      const chunks: string[] = [];
      for (let i = 0; i < body.length; i += size) chunks.push(body.slice(i, i + size));
      expect(parse(chunks)).toEqual(whole);
    }
  });

  it('accepts CRLF and CR line ends, even split between chunks', () => {
    const crlf = body.replaceAll('\n', '\r\n');
    expect(parse([crlf])).toEqual(parse([body]));
    const cr = body.replaceAll('\n', '\r');
    expect(parse([cr.slice(0, 30), cr.slice(30)])).toEqual(parse([body]));
    const split = 'event: delta\r\ndata: {"text":"a"}\r';
    expect(parse([split, '\n\r\n'])).toEqual([{ event: 'delta', data: { text: 'a' } }]);
  });

  it('skips comments, unknown events and data that is not JSON; joins multi-line data', () => {
    const events = parse([
      ': keep-alive\n\n',
      'event: ping\ndata: {}\n\n',
      'event: delta\ndata: not json\n\n',
      'event: error\ndata: {"status":502,\ndata: "detail":"The agent returned an empty response."}\n\n',
    ]);
    expect(events).toEqual([
      { event: 'error', data: { status: 502, detail: 'The agent returned an empty response.' } },
    ]);
  });

  it('dispatches a last event without its blank line when the body ends', () => {
    expect(parse(['event: delta\ndata: {"text":"x"}'])).toEqual([{ event: 'delta', data: { text: 'x' } }]);
  });
});

describe('turn state', () => {
  it('streams text, shows tools as they run and keeps the answer', () => {
    let turn = initialTurn;
    const states = parse([body]).map((e) => (turn = applyEvent(turn, e)));
    expect(states[1]?.text).toBe('Hello');
    expect(states[2]?.tools).toEqual([{ name: 'get_accounts', args: {} }]);
    expect(states[3]?.tools).toEqual([{ name: 'get_accounts', args: {}, success: true, summary: '2 accounts' }]);
    expect(turn.status).toBe('answered');
    expect(turn.text).toBe('Hello');
  });

  it('matches results to the oldest running call of the same name', () => {
    let turn = initialTurn;
    for (const e of [
      { event: 'tool_call', data: { name: 'publish', args: { a: 1 } } },
      { event: 'tool_call', data: { name: 'publish', args: { a: 2 } } },
      { event: 'tool_result', data: { name: 'publish', success: false, summary: 'first' } },
    ] as AgentEvent[])
      turn = applyEvent(turn, e);
    expect(turn.tools.map((t) => t.summary)).toEqual(['first', undefined]);
    expect(mayHaveHeld(turn)).toBe(false);
    turn = applyEvent(turn, { event: 'tool_result', data: { name: 'publish', success: true, summary: 'held' } });
    expect(mayHaveHeld(turn)).toBe(true);
  });

  it('replaces the streamed text of earlier steps by the final response and reports errors', () => {
    let turn = applyEvent(initialTurn, { event: 'delta', data: { text: 'Let me look. ' } });
    turn = applyEvent(turn, { event: 'delta', data: { text: 'Done.' } });
    const answered = applyEvent(turn, {
      event: 'answer',
      data: { success: true, agent_response_json: '{}', parsed: { response: 'Done.' } },
    });
    expect(answered.text).toBe('Done.');
    const failed = applyEvent(turn, { event: 'error', data: { status: 500, detail: 'The agent could not answer.' } });
    expect(failed).toMatchObject({ status: 'failed', error: 'The agent could not answer.' });
  });
});
