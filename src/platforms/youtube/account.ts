// The connected YouTube channel: channels.list?mine=true (the one channel picked at consent) and its playlists as
// destinations. Both reads cost 1 quota unit per page; the profile slice uses the field names of contract-gaps §5.
import type { AccountIdentity, Destination, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { YouTubeContext } from './context.ts';
import { readApi } from './errors.ts';

type Obj = Record<string, unknown>;

// Bounds a runaway nextPageToken chain; 20 pages of 50 is far beyond any real channel's playlists.
const MAX_PLAYLIST_PAGES = 20;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
// The Data API sends counts as int64 strings.
const count = (v: unknown): number | null => {
  const n = typeof v === 'string' && v !== '' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) ? n : null;
};

function thumbnailUrl(snippet: Obj): string | null {
  const t = obj(snippet.thumbnails);
  return text(obj(t.high).url) ?? text(obj(t.medium).url) ?? text(obj(t.default).url);
}

interface ChannelInfo {
  channel_id: string | null;
  title: string | null;
  custom_url: string | null;
  thumbnail_url: string | null;
  thumbnails: { high: { url: string } } | null;
  subscriber_count: number | null;
  video_count: number | null;
  view_count: number | null;
  country: string | null;
  default_language: string | null;
  published_at: string | null;
  keywords: string | null;
  description: string | null;
}

function channelInfo(channel: Obj): ChannelInfo {
  const snippet = obj(channel.snippet);
  const stats = obj(channel.statistics);
  const branding = obj(obj(channel.brandingSettings).channel);
  const high = text(obj(obj(snippet.thumbnails).high).url);
  return {
    channel_id: text(channel.id),
    title: text(snippet.title),
    custom_url: text(snippet.customUrl),
    thumbnail_url: thumbnailUrl(snippet),
    thumbnails: high ? { high: { url: high } } : null,
    // A channel that hides its subscriber count still reports a rounded one; hidden means hidden.
    subscriber_count: stats.hiddenSubscriberCount === true ? null : count(stats.subscriberCount),
    video_count: count(stats.videoCount),
    view_count: count(stats.viewCount),
    country: text(snippet.country) ?? text(branding.country),
    default_language: text(snippet.defaultLanguage) ?? text(branding.defaultLanguage),
    published_at: text(snippet.publishedAt),
    keywords: text(branding.keywords),
    description: text(snippet.description),
  };
}

async function listPlaylists(ctx: YouTubeContext, tokens: TokenSet): Promise<Obj[]> {
  const items: Obj[] = [];
  let pageToken: string | null = null;
  for (let page = 0; page < MAX_PLAYLIST_PAGES; page++) {
    const res = await ctx.deps.http.request('youtube', {
      url: `${ctx.apiBase}/youtube/v3/playlists`,
      query: { part: 'snippet,status', mine: true, maxResults: 50, pageToken },
      headers: bearer(tokens.accessToken),
    });
    const body = readApi(res, 'playlists.list', ctx.deps.clock());
    items.push(...list(body.items));
    pageToken = text(body.nextPageToken);
    if (!pageToken) break;
  }
  return items;
}

export async function fetchYouTubeAccount(ctx: YouTubeContext, tokens: TokenSet): Promise<AccountIdentity> {
  const res = await ctx.deps.http.request('youtube', {
    url: `${ctx.apiBase}/youtube/v3/channels`,
    query: { part: 'snippet,contentDetails,statistics,brandingSettings', mine: true },
    headers: bearer(tokens.accessToken),
  });
  const channels = list(readApi(res, 'channels.list', ctx.deps.clock()).items);
  const main = channels[0];
  if (!main || !text(main.id)) {
    throw new PlatformError(
      'youtube',
      'unsupported',
      'This Google account has no YouTube channel; create one, then connect again',
      {
        status: res.status,
        code: 'youtubeSignupRequired',
      },
    );
  }
  const playlists = await listPlaylists(ctx, tokens);

  const info = channelInfo(main);
  const connections = channels.map((c, i) => {
    const ci = channelInfo(c);
    return {
      channel_id: ci.channel_id,
      title: ci.title,
      custom_url: ci.custom_url,
      thumbnail_url: ci.thumbnail_url,
      is_default: i === 0,
    };
  });
  const destinations: Destination[] = [
    ...connections.map((c, i) => ({
      kind: 'channel' as const,
      id: String(c.channel_id),
      name: c.title ?? String(c.channel_id),
      avatarUrl: c.thumbnail_url,
      meta: {
        custom_url: c.custom_url,
        // Where the channel's own uploads are listed, for reading posts back without a 100-unit search.
        uploads_playlist_id: text(obj(obj(channels[i]?.contentDetails).relatedPlaylists).uploads),
      },
    })),
    ...playlists.map((p) => {
      const snippet = obj(p.snippet);
      return {
        kind: 'playlist' as const,
        id: String(p.id),
        name: text(snippet.title) ?? String(p.id),
        avatarUrl: thumbnailUrl(snippet),
        meta: { channel_id: text(snippet.channelId), privacy_status: text(obj(p.status).privacyStatus) },
      };
    }),
  ];
  return {
    id: String(info.channel_id),
    name: info.title ?? String(info.channel_id),
    username: info.custom_url,
    avatarUrl: info.thumbnail_url,
    destinations,
    slice: {
      channel_info: info,
      connections,
      playlists: playlists.map((p) => ({ id: text(p.id), title: text(obj(p.snippet).title) })),
    },
  };
}
