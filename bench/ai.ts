// Issue figures for the built-in AI provider, in process: an idea → copy for the eight networks, and
// copy → text cards for two networks (as the image route runs them, in parallel), plus one 1080×1080
// card. p50/p99 latency and memory. Targets (printed, not asserted): copy for eight networks p50 < 50 ms,
// one 1080×1080 card < 150 ms.
import { renderCard } from '../src/ai/builtin/card.ts';
import { BuiltinProvider } from '../src/ai/builtin/index.ts';
import { NETWORKS } from '../src/platforms/registry.ts';
import { IDEAS } from '../test/ai/builtin/ideas.ts';
import { fmt } from './lib.ts';

const MiB = 1024 * 1024;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function timed(
  runs: number,
  fn: (i: number) => Promise<unknown>,
): Promise<{ p50: number; p99: number; max: number }> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), max: ms[ms.length - 1]! };
}

const line = (label: string, r: { p50: number; p99: number; max: number }, target?: string) =>
  console.log(
    `  ${label.padEnd(46)} p50 ${fmt(r.p50).padStart(6)} ms  p99 ${fmt(r.p99).padStart(6)} ms  max ${fmt(r.max).padStart(6)} ms${target ? `  (target ${target})` : ''}`,
  );

export async function benchAi(opts: { copyRuns?: number; cardRuns?: number } = {}): Promise<void> {
  const copyRuns = opts.copyRuns ?? 300;
  const cardRuns = opts.cardRuns ?? 60;
  console.log(`\n== ai: the built-in provider (in process; ${copyRuns} copy runs, ${cardRuns} card runs)`);
  const rss0 = process.memoryUsage().rss;
  const provider = new BuiltinProvider({ networks: NETWORKS });
  const slugs = NETWORKS.map((n) => n.slug);
  const ideas = Object.values(IDEAS);

  // First calls load the language tables and the fonts: reported apart from the steady state.
  let t0 = performance.now();
  await provider.copies(ideas[0]!, slugs);
  const firstCopy = performance.now() - t0;
  t0 = performance.now();
  await provider.image(IDEAS.en!, 'instagram');
  const firstCard = performance.now() - t0;
  console.log(
    `  first call (loads tables and fonts)              copy ${fmt(firstCopy)} ms, card ${fmt(firstCard)} ms`,
  );

  const copies = await timed(copyRuns, (i) => provider.copies(ideas[i % ideas.length]!, slugs));
  line(`idea → copy for ${slugs.length} networks`, copies, 'p50 < 50 ms');

  // Copy written for each network, drawn for two networks together, as the image route runs them.
  const pairs = ['instagram', 'linkedin'];
  const texts = await Promise.all(
    ideas.map(async (idea) =>
      Object.fromEntries((await provider.copies(idea, pairs)).map((c) => [c.platform, c.content])),
    ),
  );
  const two = await timed(cardRuns, (i) =>
    Promise.all(pairs.map((p) => provider.image(texts[i % texts.length]![p]!, p))),
  );
  line(`copy → cards for ${pairs.join(' + ')} (parallel)`, two);
  const square = await timed(cardRuns, (i) =>
    renderCard({ copy: texts[i % texts.length]!.instagram!, size: { width: 1080, height: 1080 }, lang: null }),
  );
  line('one 1080×1080 card (PNG)', square, '< 150 ms');

  const mem = process.memoryUsage();
  console.log(
    `  memory: RSS ${fmt(rss0 / MiB)} → ${fmt(mem.rss / MiB)} MiB (peak ${fmt(process.resourceUsage().maxRSS / 1024)} MiB), heap used ${fmt(mem.heapUsed / MiB)} MiB, external ${fmt(mem.external / MiB)} MiB`,
  );
}
