// The direct commands, unit by unit: a fake invoke records every tool call and answers what a tool would. What is
// understood calls exactly the documented tool with exactly these arguments; anything vague calls nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandsFor, directCommand } from '../../src/agent/commands.ts';
import { NETWORKS } from '../../src/platforms/registry.ts';
import type { ToolResult } from '../../src/tools/tool.ts';

const ALL_TOOLS = [
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
  'upload_media',
  'disconnect_gpt_connector',
  'clear_workspace_chat_history',
];

function fake(answers: Record<string, ToolResult> = {}) {
  const seen: { name: string; args: Record<string, unknown> }[] = [];
  const invoke = async (name: string, args: Record<string, unknown>) => {
    seen.push({ name, args });
    return answers[name] ?? { success: true, message: 'ok' };
  };
  return { seen, invoke };
}

async function calls(text: string, answers: Record<string, ToolResult> = {}) {
  const f = fake(answers);
  const out = await directCommand(text, f.invoke, ALL_TOOLS, NETWORKS);
  expect(out.calls.map((c) => ({ name: c.name, args: c.args }))).toEqual(f.seen);
  return { ...out, seen: f.seen };
}

describe('publish', () => {
  it('publishes quoted text to the named networks, whatever the quotes, case and separators', async () => {
    const cases: [string, string, string[]][] = [
      ['publish "Our new oven is here" to linkedin, bluesky', 'Our new oven is here', ['linkedin', 'bluesky']],
      ['Publish “Our new oven is here” to LinkedIn and BlueSky.', 'Our new oven is here', ['linkedin', 'bluesky']],
      ["post 'Don't miss Saturday' to threads", "Don't miss Saturday", ['threads']],
      ['PUBLISH ‘Hello’ TO Linked In & Tik Tok!', 'Hello', ['linkedin', 'tiktok']],
      ['please share "He said "hi" twice" on fb/ig/yt', 'He said "hi" twice', ['facebook', 'instagram', 'youtube']],
      ['publish: "Line one\nLine two" to bsky please', 'Line one\nLine two', ['bluesky']],
      ['publish "Pins" to pinterest now', 'Pins', ['pinterest']],
    ];
    for (const [text, body, platforms] of cases) {
      const { seen } = await calls(text, {
        publish: { success: true, post: { platform: platforms[0], post_id: 'p1', permalink: 'https://x.test/p1' } },
      });
      expect(seen, text).toEqual([{ name: 'publish', args: { platforms, default_text: body } }]);
    }
  });

  it('saves drafts with "as draft" or the verb draft, and schedules with an ISO time and its offset', async () => {
    expect((await calls('publish "Later" to linkedin as draft')).seen[0]!.args).toEqual({
      platforms: ['linkedin'],
      default_text: 'Later',
      draft: true,
    });
    expect((await calls('draft "Later" for threads')).seen[0]!.args).toEqual({
      platforms: ['threads'],
      default_text: 'Later',
      draft: true,
    });
    expect((await calls('schedule "Soon" on threads at 2026-12-01T09:00:00+01:00')).seen[0]!.args).toEqual({
      platforms: ['threads'],
      default_text: 'Soon',
      scheduled_time: '2026-12-01T09:00:00+01:00',
    });
    expect((await calls('publish "Soon" to linkedin at 2026-12-01 09:00 UTC')).seen[0]!.args.scheduled_time).toBe(
      '2026-12-01T09:00Z',
    );
    expect((await calls('schedule "Soon" at 2026-12-01T09:00:00Z on bluesky')).seen[0]!.args).toEqual({
      platforms: ['bluesky'],
      default_text: 'Soon',
      scheduled_time: '2026-12-01T09:00:00Z',
    });
  });

  it('formats per-network results as a table, also in tables_markdown', async () => {
    const { answer } = await calls('publish "Hi" to linkedin, bluesky', {
      publish: {
        success: false,
        results: [
          { platform: 'linkedin', success: true, message: 'ok', post_id: 'urn:1', permalink: 'https://li.test/1' },
          {
            platform: 'bluesky',
            success: false,
            message: 'Bluesky not connected for this workspace.',
            error: 'NOT_CONNECTED',
          },
        ],
      },
    });
    expect(answer.response).toContain('Published to 1 of 2 networks');
    expect(answer.response).toContain('| LinkedIn | published | https://li.test/1 |');
    expect(answer.response).toContain(
      '| Bluesky | failed (NOT_CONNECTED) | Bluesky not connected for this workspace. |',
    );
    expect(answer.tables_markdown).toContain('| Network | Result | Link or reason |');
    expect(answer.append_footer).toBe(false);
  });

  it('reports a held post and a refused one in the tool’s words', async () => {
    const held = await calls('publish "Hi" to linkedin', {
      publish: {
        success: true,
        pending_approval: true,
        message: 'Not published yet: approval needed.',
        drafts: [{ platform: 'linkedin', draft_id: 'd1', status: 'pending_approval' }],
      },
    });
    expect(held.answer.response).toContain('Waiting for approval');
    expect(held.answer.response).toContain('| LinkedIn | d1 | pending_approval |');
    const refused = await calls('publish "Hi" to linkedin', {
      publish: { success: false, message: 'Insufficient posts credits', error: 'insufficient_credits' },
    });
    expect(refused.answer.response).toBe('**Could not publish.** Insufficient posts credits');
  });

  it('never guesses: no quotes, no networks, unknown or foreign networks, "everywhere" or a time without offset call nothing', async () => {
    const cases: [string, string][] = [
      ['publish my last draft', 'put the text in quotes'],
      ['post hello to linkedin', 'put the text in quotes'],
      ['publish "Hello"', 'put the text in quotes'],
      ['publish "Hello" to x', 'X is not a network Herald publishes to'],
      ['publish "Hello" to linkedin and twitter', 'X (Twitter) is not a network Herald publishes to'],
      ['publish "Hello" to linkdin', "'linkdin' is not a network"],
      ['publish "Hello" to all networks', 'name the networks one by one'],
      ['schedule "Hello" on linkedin', 'give the time'],
      ['schedule "Hello" on linkedin at 2026-12-01 09:00', 'has no UTC offset'],
      ['publish "" to linkedin', 'The post text is empty'],
      ['draft posts', 'put the text in quotes'],
    ];
    for (const [text, says] of cases) {
      const { seen, answer } = await calls(text);
      expect(seen, text).toEqual([]);
      expect(answer.response, text).toContain(says);
    }
  });
});

describe('the other commands', () => {
  it('lists accounts as a table', async () => {
    const { seen, answer } = await calls('Show me my connected accounts, please!', {
      get_accounts: {
        success: true,
        platforms: ['linkedin', 'bluesky'],
        profiles: {
          linkedin: { name: 'Ada | Bakery', handle: null, username: null, needs_reconnect: false },
          bluesky: { name: 'Ada', handle: 'ada.bsky.social', username: 'ada.bsky.social', needs_reconnect: true },
        },
      },
    });
    expect(seen).toEqual([{ name: 'get_accounts', args: {} }]);
    expect(answer.response).toContain('| LinkedIn | Ada \\| Bakery | — | connected |');
    expect(answer.response).toContain('| Bluesky | Ada | ada.bsky.social | needs reconnecting |');
    expect(answer.tables_markdown).toContain('| Network | Name | Handle | Status |');
    expect((await calls('accounts')).seen).toEqual([{ name: 'get_accounts', args: {} }]);
    expect(
      (await calls('list accounts', { get_accounts: { success: true, platforms: [], profiles: {} } })).answer.response,
    ).toContain('No accounts are connected');
  });

  it('lists the queue: all, scheduled, drafts, on one network', async () => {
    const q = (text: string) => calls(text).then((r) => r.seen);
    expect(await q('list queued posts')).toEqual([{ name: 'get_queued_posts', args: { type: 'all' } }]);
    expect(await q('What is in the queue?')).toEqual([{ name: 'get_queued_posts', args: { type: 'all' } }]);
    expect(await q('show scheduled posts')).toEqual([{ name: 'get_queued_posts', args: { type: 'scheduled' } }]);
    expect(await q('list drafts')).toEqual([{ name: 'get_queued_posts', args: { type: 'draft' } }]);
    expect(await q('list scheduled posts on LinkedIn')).toEqual([
      { name: 'get_queued_posts', args: { type: 'scheduled', platform: 'linkedin' } },
    ]);
    const { answer } = await calls('list queued posts', {
      get_queued_posts: {
        success: true,
        message: 'Found 1 scheduled post and 0 drafts.',
        scheduled_posts: [
          {
            scheduled_post_id: 's1',
            platform: 'threads',
            status: 'scheduled',
            scheduled_time: '2026-12-01T08:00:00.000Z',
            scheduled_time_formatted: 'Dec 1, 2026 9:00 AM',
            post_data: { default_text: 'Oven day' },
          },
        ],
        drafts: [],
      },
    });
    expect(answer.response).toContain('| Threads | Dec 1, 2026 9:00 AM | scheduled | Oven day | s1 |');
    expect(answer.response).toContain('**Drafts**: none.');
  });

  it('generates copy for networks (or all) from an idea, and shows it without publishing', async () => {
    const { seen, answer } = await calls('Generate copy for LinkedIn and Threads: our second oven opens on Saturday', {
      idea_to_content: {
        success: true,
        message: "Copy generated by Herald's built-in provider.",
        data: { linkedin: { content: 'Our second oven…\n#bakery' }, threads: { error: 'boom' } },
      },
    });
    expect(seen).toEqual([
      {
        name: 'idea_to_content',
        args: { platforms: ['linkedin', 'threads'], idea: 'our second oven opens on Saturday' },
      },
    ]);
    expect(answer.response).toContain('**LinkedIn**\n\n> Our second oven…\n> #bakery');
    expect(answer.response).toContain('**Threads**\n\nFailed: boom');
    expect(answer.response).toContain('Nothing was published');
    expect((await calls('write a post for all networks about "fresh bread"')).seen[0]!.args).toEqual({
      platforms: 'all',
      idea: 'fresh bread',
    });
    const vague = await calls('write something nice');
    expect(vague.seen).toEqual([]);
    expect(vague.answer.response).toContain('generate copy for linkedin, threads:');
  });

  it('shows comments and analytics, optionally for some networks', async () => {
    expect((await calls('show comments on instagram')).seen).toEqual([
      { name: 'get_comments', args: { platforms: ['instagram'] } },
    ]);
    const c = await calls('comments', {
      get_comments: {
        success: true,
        threads: {
          posts: [
            { post_id: 't1', comments: [{ author_name: 'Bo', text: 'Lovely', created_at: '2026-11-20T10:00:00Z' }] },
          ],
          last_updated: null,
        },
      },
    });
    expect(c.answer.response).toContain('| Threads | Bo | Lovely | 2026-11-20T10:00:00Z | t1 |');
    expect((await calls('show analytics for bluesky and threads')).seen).toEqual([
      { name: 'get_unified_analytics', args: { platforms: ['bluesky', 'threads'] } },
    ]);
    const a = await calls('stats', {
      get_unified_analytics: {
        success: true,
        platforms: {
          bluesky: {
            post_count: 2,
            total_likes: 5,
            total_comments: 1,
            total_reach: 100,
            average_engagement_rate: 0.06,
          },
        },
        totals: { post_count: 2, total_likes: 5, total_comments: 1, total_reach: 100, average_engagement_rate: 0.06 },
      },
    });
    expect(a.answer.response).toContain('| Bluesky | 2 | 5 | 1 | 100 | 6.0% |');
  });

  it('reports a tool’s in-band failure and a thrown one, without internals', async () => {
    const failed = await calls('list drafts', {
      get_queued_posts: {
        success: false,
        message: 'Plan upgrade required for: drafts_enabled',
        error: 'plan_required',
      },
    });
    expect(failed.answer.response).toBe(
      '**Could not list the queued posts.** Plan upgrade required for: drafts_enabled',
    );
    expect(failed.calls[0]!.result.success).toBe(false);
    const thrown = await directCommand(
      'list accounts',
      async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { status: 500 });
      },
      ALL_TOOLS,
      NETWORKS,
    );
    expect(thrown.answer.response).toBe('**Could not list the accounts.** The tool failed unexpectedly.');
  });

  it('says so when a tool is not available to the caller, and calls nothing', async () => {
    const f = fake();
    const out = await directCommand('show analytics', f.invoke, ['get_accounts'], NETWORKS);
    expect(f.seen).toEqual([]);
    expect(out.answer.response).toContain('`get_unified_analytics` is not available');
  });
});

describe('anything else', () => {
  it('answers help with the command list', async () => {
    for (const text of ['help', 'HELP!', 'What can you do?', '', 'commands']) {
      const { seen, answer } = await calls(text);
      expect(seen, text).toEqual([]);
      expect(answer.response, text).toContain('`list accounts`');
    }
  });

  it('says plainly that a model is needed, naming the settings and docs, and lists the commands; nothing is called', async () => {
    for (const text of [
      'Draft three LinkedIn posts from this video and schedule them for next week',
      'delete all my drafts',
      'disconnect linkedin',
      'clear the chat history',
      "what's the weather",
    ]) {
      const { seen, answer } = await calls(text);
      expect(seen, text).toEqual([]);
      expect(answer.response, text).toContain('No AI model is configured');
      for (const s of [
        'HERALD_AI_PROVIDER',
        'HERALD_AI_MODEL',
        'HERALD_AI_API_KEY',
        'HERALD_AI_BASE_URL',
        'docs/agent.md',
        '`show analytics`',
      ])
        expect(answer.response, text).toContain(s);
      expect(answer.tables_markdown).toBe('');
    }
  });

  it('docs/agent.md lists every command', () => {
    const doc = readFileSync(new URL('../../docs/agent.md', import.meta.url), 'utf8');
    for (const [cmd] of commandsFor(NETWORKS)) expect(doc).toContain(cmd);
  });
});
