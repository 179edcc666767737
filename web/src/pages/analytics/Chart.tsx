// A line chart drawn by uPlot. This module (and uPlot with it) is loaded on demand by the analytics page. The canvas
// is hidden from assistive technology: the page gives the same numbers as a table beside it.
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData } from './series.ts';

/** Colours distinguishable in both themes (and by people with the common colour-vision deficiencies). */
const PALETTE = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#dc2626'];

export interface ChartProps {
  data: ChartData;
  /** The zone the time axis is drawn in. */
  timeZone: string;
  labels: (label: string) => string;
  height?: number;
}

/** Changes each time the colours may have changed: the theme chosen on <html data-theme>, or the system's. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      media.removeEventListener('change', bump);
    };
  }, []);
  return version;
}

function themeColour(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

export default function Chart({ data, labels, timeZone, height = 260 }: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  // Drawn again only when the numbers change, not each time the page renders a new object with the same ones.
  const sig = JSON.stringify(data);
  const theme = useThemeVersion();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `theme` redraws with the new colours
  useEffect(() => {
    const data: ChartData = JSON.parse(sig);
    const el = host.current;
    if (!el) return;
    const text = themeColour('--text', '#1f2937');
    const grid = themeColour('--border', '#d1d5db');
    const axis: uPlot.Axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const opts: uPlot.Options = {
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timeZone),
      width: Math.max(el.clientWidth, 240),
      height,
      series: [
        {},
        ...data.series.map((s, i) => ({
          label: labels(s.label),
          stroke: PALETTE[i % PALETTE.length],
          width: 2,
          points: { show: data.xs.length < 40 },
        })),
      ],
      axes: [axis, { ...axis, size: 56 }],
      // One reading alone would stretch the time axis over years: show the day around it.
      scales: {
        x:
          data.xs.length === 1
            ? { time: true, range: [(data.xs[0] ?? 0) - 43_200, (data.xs[0] ?? 0) + 43_200] }
            : { time: true },
      },
      legend: { show: true },
    };
    const plot = new uPlot(opts, [data.xs, ...data.series.map((s) => s.values)], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 240), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [sig, labels, height, theme, timeZone]);
  return <div ref={host} className="chart" aria-hidden="true" />;
}
