// Built-in app credentials the simulators accept. Point Herald's per-network client id/secret at these when running
// against the sandbox. Bluesky has no app registration (app passwords), hence no entry.
import type { OAuthPlatform } from './core/types.ts';

export interface SandboxApp {
  clientId: string;
  clientSecret: string;
  /** What the operator would declare about this app (HERALD_<PLATFORM>_<KEY>): the sandbox's apps are approved. */
  settings?: Readonly<Record<string, string>>;
}

export const SANDBOX_APPS: Record<OAuthPlatform, SandboxApp> = {
  linkedin: { clientId: '86sbxherald0li', clientSecret: 'WPL_AP1.sandboxHeraldLinkedIn.c2FuZGJveA==' },
  facebook: { clientId: '7310000000000001', clientSecret: 'f5a1d0c3b2e4a6978899aabbccddeeff' },
  instagram: { clientId: '7310000000000002', clientSecret: '0a1b2c3d4e5f60718293a4b5c6d7e8f9' },
  threads: { clientId: '7310000000000003', clientSecret: '9f8e7d6c5b4a39281706f5e4d3c2b1a0' },
  tiktok: {
    clientId: 'awsbxherald0tiktk',
    clientSecret: 'SbxHeraldTikTokClientSecret0000',
    settings: { audited: 'true', mediaDomainVerified: 'true' },
  },
  youtube: {
    clientId: '100000000001-sandboxherald0youtube.apps.googleusercontent.com',
    clientSecret: 'GOCSPX-SandboxHeraldYouTube00000',
  },
  pinterest: { clientId: '1500001', clientSecret: '5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c' },
};

export const SANDBOX_APP_NAME = 'Herald (sandbox)';
