// Where an adapter points each network's hosts when running against the sandbox. Every value replaces the origin of a
// real host; the adapter appends the real path unchanged (e.g. `${authBase}/oauth/v2/authorization`).
import type { Platform } from './core/types.ts';

export const SANDBOX_MOUNT = '/sandbox';

export interface SandboxBaseUrls {
  /** authBase → https://www.linkedin.com, apiBase → https://api.linkedin.com */
  linkedin: { authBase: string; apiBase: string };
  /**
   * authBase → https://www.facebook.com (dialog), graphBase → https://graph.facebook.com,
   * graphVideoBase → https://graph-video.facebook.com, ruploadBase → https://rupload.facebook.com.
   * Instagram via Facebook Login uses these too.
   */
  facebook: { authBase: string; graphBase: string; graphVideoBase: string; ruploadBase: string };
  /** Instagram API with Instagram Login: authBase → https://www.instagram.com, tokenBase → https://api.instagram.com, graphBase → https://graph.instagram.com */
  instagram: { authBase: string; tokenBase: string; graphBase: string };
  /** authBase → https://threads.net, graphBase → https://graph.threads.net */
  threads: { authBase: string; graphBase: string };
  /** authBase → https://www.tiktok.com, apiBase → https://open.tiktokapis.com */
  tiktok: { authBase: string; apiBase: string };
  /** authBase → https://accounts.google.com, tokenBase → https://oauth2.googleapis.com, apiBase → https://www.googleapis.com */
  youtube: { authBase: string; tokenBase: string; apiBase: string };
  /** authBase → https://www.pinterest.com, apiBase → https://api.pinterest.com */
  pinterest: { authBase: string; apiBase: string };
  /**
   * service → the PDS / entryway (https://bsky.social), appView → https://public.api.bsky.app,
   * plc → https://plc.directory, video → https://video.bsky.app
   */
  bluesky: { service: string; appView: string; plc: string; video: string };
}

export function sandboxBaseUrls(publicUrl: string): SandboxBaseUrls & Record<Platform, Record<string, string>> {
  const root = `${publicUrl.replace(/\/+$/, '')}${SANDBOX_MOUNT}`;
  const at = (platform: Platform): string => `${root}/${platform}`;
  return {
    linkedin: { authBase: at('linkedin'), apiBase: at('linkedin') },
    facebook: {
      authBase: at('facebook'),
      graphBase: at('facebook'),
      graphVideoBase: at('facebook'),
      ruploadBase: at('facebook'),
    },
    instagram: { authBase: at('instagram'), tokenBase: at('instagram'), graphBase: at('instagram') },
    threads: { authBase: at('threads'), graphBase: at('threads') },
    tiktok: { authBase: at('tiktok'), apiBase: at('tiktok') },
    youtube: { authBase: at('youtube'), tokenBase: at('youtube'), apiBase: at('youtube') },
    pinterest: { authBase: at('pinterest'), apiBase: at('pinterest') },
    bluesky: { service: at('bluesky'), appView: at('bluesky'), plc: `${at('bluesky')}/plc`, video: at('bluesky') },
  };
}
