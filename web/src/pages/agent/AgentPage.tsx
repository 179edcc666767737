// The workspace agent: a conversation streamed from POST /workspace-agent/website/chat/stream (text as it comes,
// each tool call as it runs), the workspace's history (GET /user-agent-chats), voice input through the transcribe
// route when the server has a speech-to-text model, and what a turn held for approval, approvable in line.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { api, appHeaders, must } from '../../api/client.ts';
import { ApiError, errorMessage } from '../../api/errors.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorState, ErrorText, Loading } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import '../../styles/pages.css';
import { heldSince } from '../approvals/held.ts';
import { Decisions, HeldItem, heldKey, useDecisions } from '../approvals/HeldItem.tsx';
import { type AgentEvent, applyEvent, createEventParser, initialTurn, mayHaveHeld, type TurnState } from './stream.ts';
import { Markdown } from './Markdown.tsx';
import { useRecorder } from './voice.ts';

const HISTORY_PAGE = 20;

interface LiveTurn {
  id: number;
  text: string;
  startedAt: number;
  state: TurnState;
}

async function streamTurn(text: string, signal: AbortSignal, onEvent: (e: AgentEvent) => void) {
  const headers = await appHeaders('POST');
  const res = await fetch('/workspace-agent/website/chat/stream', {
    method: 'POST',
    credentials: 'include',
    headers: { ...headers, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ text }),
    signal,
  });
  if (!res.ok || !res.body) throw ApiError.fromBody(await res.json().catch(() => undefined), res.status);
  const parser = createEventParser(onEvent);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  parser.end();
}

/** Whether the server can transcribe: it answers 503 before reading the body when it has no model. */
function useTranscribeAvailable() {
  return useQuery({
    queryKey: ['agent', 'transcribe-available'],
    queryFn: async () => {
      const res = await fetch('/workspace-agent/website/transcribe', {
        method: 'POST',
        credentials: 'include',
        headers: await appHeaders('POST'),
        body: new FormData(),
      });
      return res.status !== 503 && res.status !== 404;
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

async function transcribe(audio: Blob): Promise<string> {
  const form = new FormData();
  form.append('file', audio, 'voice.webm');
  const res = await fetch('/workspace-agent/website/transcribe', {
    method: 'POST',
    credentials: 'include',
    headers: await appHeaders('POST'),
    body: form,
  });
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw ApiError.fromBody(body, res.status);
  return (body as { transcript: string }).transcript;
}

function ToolSteps({ tools }: { tools: TurnState['tools'] }) {
  if (tools.length === 0) return null;
  return (
    <ol className="tool-steps" aria-label={t.agent.tools}>
      {tools.map((tool, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: steps only grow, in order
        <li key={i} className="tool-step">
          <span className="tool-name">{tool.name}</span>
          <span
            className={`badge ${tool.success === undefined ? 'badge-info' : tool.success ? 'badge-success' : 'badge-danger'}`}
          >
            {tool.success === undefined ? t.agent.running : tool.success ? t.agent.done : t.agent.failed}
          </span>
          {tool.summary && <span className="tool-summary">{tool.summary}</span>}
          {tool.args !== undefined && (
            <details>
              <summary>{t.agent.arguments}</summary>
              <pre className="held-args">{JSON.stringify(tool.args, null, 2)}</pre>
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}

/** What this turn held for approval: the pending items created since it started. */
function HeldInLine({ since }: { since: number }) {
  const { workspace } = useWorkspace();
  const { decisions, add } = useDecisions();
  const held = useQuery({
    queryKey: [...heldKey, 'pending_approval', workspace.id],
    queryFn: () => must(api.GET('/unified/drafts', { params: { query: { status: 'pending_approval', limit: 100 } } })),
  });
  if (held.isPending) return <Loading label={t.agent.checkingHeld} />;
  if (held.error) return <ErrorText error={held.error} />;
  const items = heldSince(held.data.data, since);
  if (items.length === 0 && decisions.length === 0) return null;
  return (
    <section className="held-inline" aria-label={t.agent.heldTitle}>
      {items.length > 0 && <p className="page-note">{t.agent.heldTitle}</p>}
      {items.map((item) => (
        <HeldItem key={item.id} item={item} onDecided={add} />
      ))}
      <Decisions decisions={decisions} />
    </section>
  );
}

function Exchange({
  user,
  at,
  answer,
  tools,
  status,
  error,
  heldSinceMs,
}: {
  user: string;
  at: string;
  answer: string;
  tools?: TurnState['tools'];
  status?: TurnState['status'];
  error?: string | undefined;
  heldSinceMs?: number | undefined;
}) {
  const time = useWorkspaceTime();
  return (
    <li className="exchange">
      <div className="bubble bubble-user">
        <span className="visually-hidden">{t.agent.you}: </span>
        <p>{user}</p>
        <time dateTime={at}>{time.dateTime(at)}</time>
      </div>
      <div className="bubble bubble-agent" aria-busy={status === 'streaming' || undefined}>
        <span className="visually-hidden">{t.agent.agent}: </span>
        {tools && <ToolSteps tools={tools} />}
        {answer ? <Markdown text={answer} /> : status === 'streaming' && <p className="muted">{t.agent.thinking}</p>}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {heldSinceMs !== undefined && <HeldInLine since={heldSinceMs} />}
      </div>
    </li>
  );
}

function History() {
  const { workspace } = useWorkspace();
  const history = useInfiniteQuery({
    queryKey: ['agent', 'history', workspace.id],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/user-agent-chats', {
          params: { query: { channel: 'website', limit: HISTORY_PAGE, offset: pageParam } },
        }),
      ),
    getNextPageParam: (last) =>
      last.offset + last.items.length < last.total ? last.offset + last.items.length : undefined,
    // Read again each time the page opens (the turns of the last visit are in it then), never while it is open:
    // the turns of this visit are shown from the stream, and a refetch would list them twice.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  if (history.isPending) return <Loading label={t.agent.loadingHistory} />;
  if (history.error) return <ErrorState error={history.error} onRetry={() => void history.refetch()} />;
  const items = history.data.pages.flatMap((p) => p.items).reverse();
  return (
    <>
      {history.hasNextPage && (
        <div className="load-more">
          <Button busy={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
            {t.agent.loadEarlier}
          </Button>
        </div>
      )}
      {items.length > 0 && (
        <ol className="conversation" aria-label={t.agent.history}>
          {items.map((item) => (
            <Exchange
              key={item.id}
              user={item.turn.user.text}
              at={item.turn.user.at}
              answer={item.turn.assistant.text}
            />
          ))}
        </ol>
      )}
      {items.length === 0 && <Empty title={t.agent.empty}>{<p>{t.agent.emptyHint}</p>}</Empty>}
    </>
  );
}

function AgentView() {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [turns, setTurns] = useState<LiveTurn[]>([]);
  const abort = useRef<AbortController | null>(null);
  const nextId = useRef(0);
  const inputId = useId();
  const endRef = useRef<HTMLDivElement>(null);
  const streaming = turns.some((tr) => tr.state.status === 'streaming');
  const transcribeAvailable = useTranscribeAvailable();
  const recorder = useRecorder();
  const voice = useMutation({
    mutationFn: transcribe,
    onSuccess: (transcript) => setText((prev) => (prev ? `${prev} ${transcript}` : transcript)),
  });
  const clear = useMutation({
    mutationFn: () => must(api.DELETE('/user-agent-chats')),
    onSuccess: () => {
      setTurns([]);
      void queryClient.invalidateQueries({ queryKey: ['agent', 'history', workspace.id] });
    },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the conversation as it grows
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'nearest' });
  }, [turns.length]);
  useEffect(
    () => () => {
      abort.current?.abort();
    },
    [],
  );

  const send = () => {
    const message = text.trim();
    if (!message || streaming) return;
    const id = nextId.current++;
    const update = (f: (s: TurnState) => TurnState) =>
      setTurns((all) => all.map((tr) => (tr.id === id ? { ...tr, state: f(tr.state) } : tr)));
    setTurns((all) => [...all, { id, text: message, startedAt: Date.now(), state: initialTurn }]);
    setText('');
    const controller = new AbortController();
    abort.current = controller;
    streamTurn(message, controller.signal, (e) => update((s) => applyEvent(s, e))).then(
      () => {
        update((s) => (s.status === 'streaming' ? { ...s, status: 'failed', error: t.agent.cutOff } : s));
        void queryClient.invalidateQueries({ queryKey: heldKey });
      },
      (err: unknown) =>
        update((s) => ({
          ...s,
          status: 'failed',
          error: controller.signal.aborted ? t.agent.stopped : errorMessage(err),
        })),
    );
  };

  return (
    <>
      <PageHeader title={t.agent.title}>
        <ConfirmButton
          label={t.agent.clear}
          confirmLabel={t.agent.confirmClear}
          busy={clear.isPending}
          onConfirm={() => clear.mutate()}
        />
      </PageHeader>
      <ErrorText error={clear.error} />
      <div className="agent-chat">
        <History />
        {turns.length > 0 && (
          <ol className="conversation" aria-label={t.agent.thisSession}>
            {turns.map((tr) => (
              <Exchange
                key={tr.id}
                user={tr.text}
                at={new Date(tr.startedAt).toISOString()}
                answer={tr.state.text}
                tools={tr.state.tools}
                status={tr.state.status}
                error={tr.state.error}
                heldSinceMs={tr.state.status !== 'streaming' && mayHaveHeld(tr.state) ? tr.startedAt : undefined}
              />
            ))}
          </ol>
        )}
        <div ref={endRef} />
        <p className="visually-hidden" role="status">
          {streaming ? t.agent.answering : turns.length > 0 ? t.agent.answered : ''}
        </p>
        <form
          className="agent-form card"
          onSubmit={(e) => {
            e.preventDefault();
            send();
          }}
        >
          <label htmlFor={inputId}>{t.agent.message}</label>
          <textarea
            id={inputId}
            rows={3}
            value={text}
            maxLength={20000}
            placeholder={t.agent.placeholder}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                send();
              }
            }}
          />
          <p className="field-hint">{t.agent.sendHint}</p>
          <ErrorText error={voice.error ?? recorder.error} />
          <div className="agent-actions">
            {streaming ? (
              <Button variant="danger" onClick={() => abort.current?.abort()}>
                {t.agent.stop}
              </Button>
            ) : (
              <Button type="submit" variant="primary" disabled={!text.trim()}>
                {t.agent.send}
              </Button>
            )}
            {transcribeAvailable.data && recorder.supported && (
              <Button
                aria-pressed={recorder.recording}
                busy={voice.isPending}
                onClick={() =>
                  recorder.recording
                    ? void recorder.stop().then((blob) => blob && voice.mutate(blob))
                    : recorder.start()
                }
              >
                {recorder.recording ? t.agent.stopRecording : t.agent.record}
              </Button>
            )}
          </div>
        </form>
      </div>
    </>
  );
}

/** A page of its own per workspace: switching workspaces starts it afresh (what was read, typed or sent here stays with its workspace). */
export default function AgentPage() {
  const { workspace } = useWorkspace();
  return <AgentView key={workspace.id} />;
}
