// The answers of the post routes (one network, several, drafts, a schedule) as one list of per-network outcomes.
export interface Outcome {
  platform: string;
  success: boolean;
  message: string;
  permalink?: string | undefined;
  kind: 'published' | 'scheduled' | 'draft' | 'approval' | 'failed';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function outcomesOf(answer: unknown, mode: 'publish' | 'schedule' | 'draft' | 'approval'): Outcome[] {
  if (!isObj(answer)) return [];
  const out: Outcome[] = [];
  const ok = mode === 'schedule' ? 'scheduled' : mode === 'draft' ? 'draft' : 'published';
  // Sent for approval: held drafts, one per network, waiting for another member.
  const held = answer.pending_approval === true;
  if (Array.isArray(answer.results))
    for (const r of answer.results.filter(isObj)) {
      const post = isObj(r.post) ? r.post : {};
      out.push({
        platform: str(r.platform),
        success: r.success === true,
        message: str(r.message),
        permalink: str(post.permalink) || undefined,
        kind: r.success === true ? ok : 'failed',
      });
    }
  if (Array.isArray(answer.drafts))
    for (const d of answer.drafts.filter(isObj))
      out.push({
        platform: str(d.platform),
        success: true,
        message: str(answer.message),
        kind: held ? 'approval' : 'draft',
      });
  if (Array.isArray(answer.scheduled))
    for (const d of answer.scheduled.filter(isObj))
      out.push({ platform: str(d.platform), success: true, message: str(answer.message), kind: 'scheduled' });
  if (!out.length && isObj(answer.post)) {
    out.push({
      platform: str(answer.post.platform),
      success: answer.success === true,
      message: str(answer.message),
      permalink: str(answer.post.permalink) || undefined,
      kind: answer.success === true ? ok : 'failed',
    });
  }
  if (!out.length)
    out.push({
      platform: '',
      success: answer.success !== false,
      message: str(answer.message),
      kind: answer.success === false ? 'failed' : ok,
    });
  return out;
}
