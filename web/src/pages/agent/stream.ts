// The agent's streamed turn (POST /workspace-agent/website/chat/stream, docs/agent.md): server-sent events read
// from the response body as text arrives, and the state of one turn built from them. No DOM here: the page feeds
// the decoded chunks in, and the tests feed strings.

export type AgentEvent =
  | { event: 'delta'; data: { text: string } }
  | { event: 'tool_call'; data: { name: string; args: unknown } }
  | { event: 'tool_result'; data: { name: string; success: boolean; summary: string } }
  | { event: 'answer'; data: { success: boolean; agent_response_json: string; parsed: { response: string } } }
  | { event: 'error'; data: { status: number; detail: string } };

const NAMES = new Set(['delta', 'tool_call', 'tool_result', 'answer', 'error']);

/**
 * An incremental parser of `text/event-stream`: `push` any piece of the body (events may be split anywhere, lines
 * may end in \n, \r\n or \r), `end` when the body is done. Events of other names and data that is not JSON are
 * skipped, as the format says unknown events must be.
 */
export function createEventParser(onEvent: (event: AgentEvent) => void): { push(chunk: string): void; end(): void } {
  let buffer = '';
  let name = '';
  let data: string[] = [];

  const dispatch = () => {
    if (data.length > 0 && NAMES.has(name || 'message')) {
      try {
        onEvent({ event: name, data: JSON.parse(data.join('\n')) } as AgentEvent);
      } catch {
        // not JSON: skipped
      }
    }
    name = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return; // a comment (keep-alive)
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  };

  return {
    push(chunk) {
      buffer += chunk;
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
        if (match[0] === '\r' && match.index === buffer.length - 1) break;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
    end() {
      if (buffer !== '') line(buffer.replace(/\r$/, ''));
      buffer = '';
      dispatch();
    },
  };
}

export interface ToolStep {
  name: string;
  args: unknown;
  /** undefined while the tool runs */
  success?: boolean;
  summary?: string;
}

export interface TurnState {
  /** Text streamed so far (every step's), replaced by the final answer's `response` when it comes. */
  text: string;
  tools: ToolStep[];
  status: 'streaming' | 'answered' | 'failed';
  error?: string;
}

export const initialTurn: TurnState = { text: '', tools: [], status: 'streaming' };

/** The turn after one more event. Pure: the page keeps the result in React state. */
export function applyEvent(turn: TurnState, ev: AgentEvent): TurnState {
  switch (ev.event) {
    case 'delta':
      return { ...turn, text: turn.text + ev.data.text };
    case 'tool_call':
      return { ...turn, tools: [...turn.tools, { name: ev.data.name, args: ev.data.args }] };
    case 'tool_result': {
      // The result belongs to the oldest call of that name still running.
      const i = turn.tools.findIndex((t) => t.name === ev.data.name && t.success === undefined);
      const done = { success: ev.data.success, summary: ev.data.summary };
      const tools =
        i === -1
          ? [...turn.tools, { name: ev.data.name, args: undefined, ...done }]
          : turn.tools.map((t, j) => (j === i ? { ...t, ...done } : t));
      return { ...turn, tools };
    }
    case 'answer':
      return { ...turn, text: ev.data.parsed.response, status: 'answered' };
    case 'error':
      return { ...turn, status: 'failed', error: ev.data.detail };
  }
}

/** Tools whose call may be held for a member's approval (docs/tools.md): after one ran, the page looks for held items. */
export const HOLDABLE_TOOLS = new Set(['publish', 'reply_to_comment', 'manage_platform_connection']);

export function mayHaveHeld(turn: TurnState): boolean {
  return turn.tools.some((t) => HOLDABLE_TOOLS.has(t.name) && t.success === true);
}
