// YouTube Data API v3 reads used when connecting an account: channels.list (mine / id) and playlists.list
// (mine / channelId). Parts are validated and only the requested parts are returned.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assetsOf, str } from '../core/accounts.ts';
import { bearerToken, queryParams } from '../core/http.ts';
import { randomUrlSafe } from '../core/ids.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { AccountRecord, AssetRecord, JsonObject } from '../core/types.ts';
import { apiAuthError, googleApiError, insufficientScopes } from './errors.ts';

const G = 'https://www.googleapis.com/auth/';
const READ_SCOPES = [`${G}youtube`, `${G}youtube.readonly`, `${G}youtube.force-ssl`, `${G}youtubepartner`];
const CHANNEL_PARTS = [
  'id',
  'snippet',
  'contentDetails',
  'statistics',
  'status',
  'brandingSettings',
  'topicDetails',
  'localizations',
];
const PLAYLIST_PARTS = ['id', 'snippet', 'contentDetails', 'status', 'player', 'localizations'];

const etag = (): string => randomUrlSafe(27);

function thumbnails(url: string): JsonObject {
  return {
    default: { url, width: 88, height: 88 },
    medium: { url, width: 240, height: 240 },
    high: { url, width: 800, height: 800 },
  };
}

function channelResource(ch: AssetRecord, parts: string[]): JsonObject {
  const f = ch.fields;
  const all: Record<string, JsonObject> = {
    snippet: {
      title: ch.name,
      description: str(f.description),
      customUrl: str(f.customUrl),
      publishedAt: str(f.publishedAt),
      thumbnails: thumbnails(str(f.thumbnail)),
      localized: { title: ch.name, description: str(f.description) },
      country: 'US',
    },
    contentDetails: { relatedPlaylists: { likes: '', uploads: str(f.uploads) } },
    statistics: {
      viewCount: str(f.viewCount, '0'),
      subscriberCount: str(f.subscriberCount, '0'),
      hiddenSubscriberCount: false,
      videoCount: str(f.videoCount, '0'),
    },
    status: { privacyStatus: 'public', isLinked: true, longUploadsStatus: 'allowed', madeForKids: false },
    brandingSettings: { channel: { title: ch.name, description: str(f.description) } },
    topicDetails: { topicCategories: [] },
    localizations: {},
  };
  const out: JsonObject = { kind: 'youtube#channel', etag: etag(), id: ch.id };
  for (const p of parts) if (all[p]) out[p] = all[p];
  return out;
}

function playlistResource(pl: AssetRecord, channel: AssetRecord | undefined, parts: string[]): JsonObject {
  const f = pl.fields;
  const all: Record<string, JsonObject> = {
    snippet: {
      publishedAt: str(f.publishedAt),
      channelId: pl.parentId ?? '',
      title: pl.name,
      description: str(f.description),
      thumbnails: thumbnails(str(channel?.fields.thumbnail)),
      channelTitle: channel?.name ?? '',
      localized: { title: pl.name, description: str(f.description) },
    },
    contentDetails: { itemCount: typeof f.itemCount === 'number' ? f.itemCount : 0 },
    status: { privacyStatus: str(f.privacyStatus, 'public') },
    player: { embedHtml: `<iframe src="https://www.youtube.com/embed/videoseries?list=${pl.id}"></iframe>` },
    localizations: {},
  };
  const out: JsonObject = { kind: 'youtube#playlist', etag: etag(), id: pl.id };
  for (const p of parts) if (all[p]) out[p] = all[p];
  return out;
}

/** Auth, `part` validation and scope check shared by both list endpoints. */
function prepare(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  allowed: string[],
): { account: AccountRecord; parts: string[] } | null {
  const q = queryParams(req);
  const checked = checkToken(call, bearerToken(req), ['access']);
  if (!checked.ok) {
    sendAnswer(reply, apiAuthError(checked.problem));
    return null;
  }
  if (!q.part) {
    sendAnswer(
      reply,
      googleApiError(400, 'INVALID_ARGUMENT', 'Required parameter: part', 'required', { location: 'part' }),
    );
    return null;
  }
  const parts = q.part.split(',').map((p) => p.trim());
  const bad = parts.find((p) => !allowed.includes(p));
  if (bad) {
    sendAnswer(
      reply,
      googleApiError(400, 'INVALID_ARGUMENT', `'${bad}'`, 'unknownPart', { domain: 'youtube.part', location: 'part' }),
    );
    return null;
  }
  if (!READ_SCOPES.some((s) => checked.token.scopes.includes(s))) {
    sendAnswer(reply, insufficientScopes());
    return null;
  }
  const account = call.slice.accounts.get(checked.token.accountId);
  if (!account) {
    sendAnswer(reply, apiAuthError('invalid'));
    return null;
  }
  return { account, parts };
}

function listResponse(kind: string, items: JsonObject[], maxResults: string | undefined): JsonObject {
  const perPage = Math.max(0, Math.min(50, Number(maxResults ?? 5) || 5));
  return {
    kind,
    etag: etag(),
    pageInfo: { totalResults: items.length, resultsPerPage: perPage },
    items: items.slice(0, perPage),
  };
}

function noFilter(expected: string): ReturnType<typeof googleApiError> {
  return googleApiError(
    400,
    'INVALID_ARGUMENT',
    `No filter selected. Expected one of: ${expected}`,
    'missingRequiredParameter',
    {
      domain: 'youtube.parameter',
    },
  );
}

export function registerYouTubeData(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/youtube/v3/channels',
    ops: ['profile', 'pages'],
    surface: 'api',
    handler: (req, reply, call) => {
      const ready = prepare(req, reply, call, CHANNEL_PARTS);
      if (!ready) return reply;
      const q = queryParams(req);
      const channels = assetsOf(ready.account, 'channel');
      let items: AssetRecord[];
      if (q.mine === 'true') items = channels;
      else if (q.id) items = channels.filter((c) => q.id?.split(',').includes(c.id));
      else
        return sendAnswer(
          reply,
          noFilter('forUsername, managedByMe, categoryId, mine, mySubscribers, id, idParam, forHandle'),
        );
      return reply.send(
        listResponse(
          'youtube#channelListResponse',
          items.map((c) => channelResource(c, ready.parts)),
          q.maxResults,
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/youtube/v3/playlists',
    ops: ['pages'],
    surface: 'api',
    handler: (req, reply, call) => {
      const ready = prepare(req, reply, call, PLAYLIST_PARTS);
      if (!ready) return reply;
      const q = queryParams(req);
      const playlists = assetsOf(ready.account, 'playlist');
      let items: AssetRecord[];
      if (q.mine === 'true') items = playlists;
      else if (q.channelId) items = playlists.filter((p) => p.parentId === q.channelId);
      else if (q.id) items = playlists.filter((p) => q.id?.split(',').includes(p.id));
      else return sendAnswer(reply, noFilter('channelId, id, mine'));
      const channel = assetsOf(ready.account, 'channel')[0];
      return reply.send(
        listResponse(
          'youtube#playlistListResponse',
          items.map((p) => playlistResource(p, channel, ready.parts)),
          q.maxResults,
        ),
      );
    },
  });
}
