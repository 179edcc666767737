// The networks and what is connected: connection state (GET /unified/oauth/token), the profile slices
// (GET /unified/user-profiles) and the destinations behind an account (pages, organizations, boards, channels,
// playlists), read from the slices whose fields differ by network.
import { useQuery } from '@tanstack/react-query';
import { useWorkspace } from '../app/session.tsx';
import { t } from '../i18n/index.ts';
import { api, must } from './client.ts';
import type { paths } from './schema.d.ts';

export type ProfileSlice = NonNullable<
  paths['/unified/user-profiles']['get']['responses'][200]['content']['application/json'][string]
>;

export interface Destination {
  /** pages, organizations, boards, channels, playlists */
  kind: string;
  id: string;
  name: string;
}

const DESTINATION_KEYS = ['pages', 'organizations', 'boards', 'channels', 'playlists'] as const;
const NAME_FIELDS = ['page_name', 'name', 'title', 'display_name', 'localized_name', 'board_name'];
const ID_FIELDS = ['page_id', 'board_id', 'channel_id', 'playlist_id', 'id'];

const firstString = (o: Record<string, unknown>, keys: string[]) => {
  for (const k of keys) if (typeof o[k] === 'string' && o[k]) return o[k] as string;
  return undefined;
};

/** The pages, organizations, boards, channels and playlists a profile slice lists. */
export function destinationsOf(slice: ProfileSlice | null | undefined): Destination[] {
  if (!slice) return [];
  const out: Destination[] = [];
  for (const kind of DESTINATION_KEYS) {
    const list = slice[kind];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (!item || typeof item !== 'object') continue;
      const o = item as Record<string, unknown>;
      const id = firstString(o, ID_FIELDS);
      if (id) out.push({ kind, id, name: firstString(o, NAME_FIELDS) ?? id });
    }
  }
  return out;
}

/** A network's name as people write it. */
export function networkName(slug: string): string {
  return (t.networks as Record<string, string>)[slug] ?? slug;
}

export function useConnectionStatus() {
  const { workspace } = useWorkspace();
  return useQuery({
    queryKey: ['connections', workspace.id, 'status'],
    queryFn: () => must(api.GET('/unified/oauth/token')),
  });
}

export function useProfiles() {
  const { workspace } = useWorkspace();
  return useQuery({
    queryKey: ['connections', workspace.id, 'profiles'],
    queryFn: () => must(api.GET('/unified/user-profiles')),
  });
}

/** Whole days from `now` until `iso` (negative once past). */
export function daysUntil(iso: string, now = Date.now()): number {
  return Math.floor((new Date(iso).getTime() - now) / 86_400_000);
}
