// The registry's promises to the surfaces: every tool's description fits ChatGPT's 300 characters and says what it
// costs; names are unique snake_case; the one surface rule (GPT Actions omit web search and the chat-clear tool, MCP
// omits the chat-clear tool, the agent has all); the argument names of contract-gaps §8.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS, toolsFor } from '../../src/tools/index.ts';
import { createHarness, type Harness } from '../helpers/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { HERALD_SEARXNG_URL: 'http://127.0.0.1:9/' } });
});
afterAll(async () => h?.close());

const names = (s: 'mcp' | 'gpt' | 'agent') => toolsFor(s, h.ctx).map((t) => t.name);

describe('tool registry', () => {
  it('has every tool of docs/tools.md once, with a snake_case name', () => {
    const all = TOOLS.map((t) => t.name);
    expect(new Set(all).size).toBe(all.length);
    for (const n of all) expect(n).toMatch(/^[a-z][a-z0-9_]*$/);
    expect([...all].sort()).toEqual(
      [
        'get_accounts',
        'get_queued_posts',
        'get_user_posts',
        'get_unified_analytics',
        'get_comments',
        'reply_to_comment',
        'manage_platform_connection',
        'idea_to_content',
        'content_to_image',
        'media_to_content',
        'analyze_media',
        'publish',
        'import_posts',
        'add_to_queue',
        'get_queue',
        'upload_media',
        'disconnect_gpt_connector',
        'clear_workspace_chat_history',
        'web_search_searxng',
      ].sort(),
    );
  });

  it('every description is at most 300 characters, non-trivial, and says what the tool costs', () => {
    for (const t of TOOLS) {
      expect(t.description.length, t.name).toBeLessThanOrEqual(300);
      expect(t.description.length, t.name).toBeGreaterThan(60);
      expect(t.description, t.name).toMatch(t.credits ? /credit/i : /\bFree\b/);
      if (t.credits) expect(t.description, t.name).toContain(String(t.credits.amount));
    }
  });

  it('annotations agree with what the tools do', () => {
    for (const t of TOOLS) {
      if (t.annotations.readOnly) expect(t.annotations.destructive, t.name).toBe(false);
    }
    const destructive = TOOLS.filter((t) => t.annotations.destructive)
      .map((t) => t.name)
      .sort();
    expect(destructive).toEqual([
      'clear_workspace_chat_history',
      'disconnect_gpt_connector',
      'manage_platform_connection',
      'publish',
    ]);
  });

  it('the surface rule: GPT Actions omit web search, the chat-clear, import and queue tools, MCP only the chat-clear tool, the agent has all', () => {
    const all = TOOLS.map((t) => t.name);
    expect(names('agent')).toEqual(all);
    expect(names('mcp')).toEqual(all.filter((n) => n !== 'clear_workspace_chat_history'));
    expect(names('gpt')).toEqual(
      all.filter(
        (n) =>
          !['clear_workspace_chat_history', 'import_posts', 'add_to_queue', 'get_queue'].includes(n) &&
          !n.startsWith('web_search_'),
      ),
    );
    // ChatGPT's limit on operations.
    expect(names('gpt').length).toBeLessThanOrEqual(30);
  });

  it('the argument names of contract-gaps §8', () => {
    const args = (n: string) => Object.keys(TOOLS.find((t) => t.name === n)!.input.shape);
    expect(args('get_accounts')).toEqual(expect.arrayContaining(['platform', 'force_refresh']));
    expect(args('get_queued_posts')).toEqual(['type', 'platform', 'status']);
    // The destination filters are each network's `reads` in the registry, as on REST (Pinterest boards, YouTube channels too).
    const filters = h.ctx.platforms.networks.flatMap((n) => (n.reads ? [n.reads.param] : []));
    expect(filters).toEqual(
      expect.arrayContaining(['facebook_page_ids', 'linkedin_organization_ids', 'board_id', 'youtube_channel_id']),
    );
    expect(args('get_user_posts')).toEqual(['limit', 'refresh_posts', 'refresh_stats', 'platforms', ...filters]);
    expect(args('get_unified_analytics')).toEqual(['platforms', ...filters]);
    expect(args('get_comments')).toEqual(expect.arrayContaining(['platforms', 'post_id', 'platform', ...filters]));
    expect(args('reply_to_comment')).toEqual(
      expect.arrayContaining([
        'platform',
        'comment_id',
        'text',
        'facebook_page_id',
        'linkedin_organization_id',
        'youtube_channel_id',
      ]),
    );
    expect(args('manage_platform_connection')).toEqual(expect.arrayContaining(['action', 'platform']));
    expect(args('idea_to_content')).toEqual(
      expect.arrayContaining([
        'platforms',
        'idea',
        'user_requirements',
        'idea_by_platform',
        'page_id',
        'target_platforms',
      ]),
    );
    expect(args('content_to_image')).toEqual(
      expect.arrayContaining(['content', 'platforms', 'content_by_platform', 'user_requirements', 'page_id']),
    );
    expect(args('media_to_content')).toEqual(expect.arrayContaining(['media_type', 'platform']));
    expect(args('analyze_media')).toEqual(['url', 'media_type']);
    expect(args('publish')).toEqual(
      expect.arrayContaining([
        'post_type',
        'platforms',
        'default_text',
        'default_image_id',
        'default_image_url',
        'video_id',
        'video_url',
        'draft',
        'scheduled_time',
        'scope',
        'platform_overrides_json',
      ]),
    );
    expect(args('upload_media')).toEqual(expect.arrayContaining(['file_path', 'media_type']));
    expect(args('disconnect_gpt_connector')).toEqual([]);
    expect(args('web_search_searxng')).toEqual(['query', 'max_results']);
    // platform_overrides_json is a JSON string, not an object.
    expect(
      TOOLS.find((t) => t.name === 'publish')!.input.shape.platform_overrides_json!.safeParse({ linkedin: {} }).success,
    ).toBe(false);
  });
});
