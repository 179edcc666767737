// The checks of a post before anything is written or sent: planning (limits, overrides), plan features,
// media of this workspace (URLs imported through the SSRF-safe fetcher), each network's media rules.
// Shared by publishing, drafts and the scheduling worker.
import type { Principal } from '../auth/authenticate.ts';
import type { PlanCatalog } from '../auth/plans.ts';
import type { MediaRow } from '../media/records.ts';
import type { MediaService } from '../media/service.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { PostType } from '../platforms/publishing.ts';
import { AppError } from '../errors.ts';
import { checkMedia } from './media-check.ts';
import { planTargets, type FieldPath, type MediaRef, type PlannedTarget } from './plan.ts';
import type { PostBody } from './schemas.ts';
import { idOf } from './targets.ts';

/** A request checked by prepare(). */
export interface Prepared {
  targets: PlannedTarget[];
  media: Map<string, MediaRow>;
  /** URL → id of the library media each media URL of the body was imported as. */
  imported: Map<string, string>;
}

/** Whose request it is: a principal, or the workspace and plan the worker publishes for (no key scope then). */
export type Owner = Pick<Principal, 'workspaceId' | 'planId'> & { scope?: Principal['scope'] };

export interface PrepareOptions {
  /**
   * Where the body sits in the request, for the `loc` of errors (default ['body']; a PATCH's ['body', 'post_data']).
   */
  at?: FieldPath;
  /**
   * A network's unmet requirement (`PlannedTarget.failure`) fails that network alone, in the results.
   * Otherwise (drafts, queue entries, the worker) it is a 422, as is any failure of a draft target.
   */
  perNetworkFailures?: boolean;
  /**
   * 'unchecked': media is neither imported nor looked up, and the media rules are left for later (a dry run that must
   * not download anything: the validation of a bulk import file). Default: resolved and checked.
   */
  media?: 'resolve' | 'unchecked';
}

export class PostValidator {
  readonly #d: { registry: PlatformRegistry; plans: PlanCatalog; media: MediaService };

  constructor(deps: { registry: PlatformRegistry; plans: PlanCatalog; media: MediaService }) {
    this.#d = deps;
  }

  /** Everything the request asks for, checked before a single network call; returns targets with media rows. */
  async prepare(p: Principal, postType: PostType, body: PostBody, o: PrepareOptions = {}): Promise<Prepared> {
    this.#d.plans.assertFeature(p.planId, 'publish_enabled');
    return this.#check(p, postType, body, o);
  }

  /**
   * A body saved as drafts, checked as the post routes check `draft: true`: text limits, media ids of
   * this workspace, URLs imported through the fetcher (store the body withImportedMedia).
   */
  async prepareDrafts(p: Principal, postType: PostType, body: PostBody, o: PrepareOptions = {}): Promise<Prepared> {
    return this.#check(p, postType, { ...body, draft: true, draft_platforms: [] }, o);
  }

  async #check(p: Owner, postType: PostType, body: PostBody, o: PrepareOptions): Promise<Prepared> {
    const targets = planTargets({ networks: this.#d.registry, postType, body, at: o.at ?? ['body'] });
    const refused = targets.find((t) => t.failure && (!o.perNetworkFailures || t.draft));
    if (refused) throw new AppError('validation', refused.failure!.message);
    if (targets.some((t) => t.draft)) this.#d.plans.assertFeature(p.planId, 'drafts_enabled');
    if (targets.some((t) => t.scheduledTime && !t.draft)) {
      this.#d.plans.assertFeature(p.planId, 'scheduling_enabled');
    }
    const at = o.at ?? ['body'];
    if (o.media === 'unchecked') return { targets, media: new Map(), imported: new Map() };
    const { media, imported } = await this.#resolveMedia(p, postType, targets, at);
    const checked = (m: MediaRef) => ({ row: media.get(idOf(m))!, field: m.field });
    for (const t of targets) {
      if (!t.draft && !t.failure)
        checkMedia(
          this.#d.registry.network(t.platform),
          postType,
          t.media.map(checked),
          t.thumbnail && checked(t.thumbnail),
          at,
        );
    }
    return { targets, media, imported };
  }

  /**
   * URL media is imported into the library first (SSRF-safe, all within one deadline), then every id
   * must belong to this workspace. A refused URL is reported at the field that named it.
   */
  async #resolveMedia(
    p: Owner,
    postType: PostType,
    targets: PlannedTarget[],
    at: FieldPath,
  ): Promise<{ media: Map<string, MediaRow>; imported: Map<string, string> }> {
    // Media URLs of the video route are videos; every other URL (images, thumbnails) is an image.
    const urls = new Map<string, { id: string; kind: 'image' | 'video'; field: FieldPath }>();
    const note = (m: MediaRef, kind: 'image' | 'video') => {
      if ('url' in m && !urls.has(m.url))
        urls.set(m.url, { id: '', kind, field: m.field ?? [kind === 'video' ? 'video_url' : 'default_image_url'] });
    };
    for (const t of targets) {
      for (const m of t.media) note(m, postType === 'video' ? 'video' : 'image');
      if (t.thumbnail) note(t.thumbnail, 'image');
    }
    const library = { workspaceId: p.workspaceId, platform: null, platformUserId: null };
    const deadline = urls.size ? this.#d.media.importDeadline() : undefined;
    try {
      for (const [url, entry] of urls)
        entry.id = (await this.#d.media.add(library, { url }, entry.kind, [...at, ...entry.field], deadline)).id;
    } finally {
      deadline?.done();
    }
    for (const t of targets) {
      const asId = (m: MediaRef): MediaRef =>
        'url' in m ? { id: urls.get(m.url)!.id, ...(m.field ? { field: m.field } : {}) } : m;
      t.media = t.media.map(asId);
      if (t.thumbnail) t.thumbnail = asId(t.thumbnail);
    }
    const ids = [...new Set(targets.flatMap((t) => [...t.media, ...(t.thumbnail ? [t.thumbnail] : [])].map(idOf)))];
    const rows = ids.length ? await this.#d.media.resolveMediaForWorkspace(p.workspaceId, ids, p.scope) : [];
    return { media: new Map(rows.map((r) => [r.id, r])), imported: new Map([...urls].map(([url, e]) => [url, e.id])) };
  }

  /** The checks of prepare() for a stored body of a workspace and plan (the scheduling worker, at publish time). */
  async validate(owner: Owner, postType: PostType, body: PostBody): Promise<Prepared> {
    this.#d.plans.assertFeature(owner.planId, 'publish_enabled');
    return this.#check(owner, postType, body, {});
  }
}
