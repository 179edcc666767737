// The read side of the Pinterest simulator: a pin's numbers as pin_metrics (lifetime impression / reaction / comment,
// 90-day impression / pin_click / clickthrough) on GET /v5/pins, /v5/pins/{id} and /v5/boards/{board_id}/pins, with
// page_size (1–250) and bookmark paging, and GET /v5/pins/{pin_id}/analytics with its date window (start_date at most
// 90 days back, end_date at most 90 days past start_date, both UTC dates) and metric_types. Pinterest's API has no
// comment endpoints, so the simulator keeps no comments (`_seed` refuses them) and serves none.
import { assetsOf, findAsset } from '../core/accounts.ts';
import type { SandboxContext } from '../core/context.ts';
import { declareEngagement, metricsOf } from '../core/engagement.ts';
import { queryParams } from '../core/http.ts';
import { findObject, objectsOf } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject } from '../core/types.ts';
import { authed } from './api.ts';
import { pinError } from './errors.ts';
import { pinPage, pinView } from './pins.ts';

export const PIN_METRIC_TYPES = [
  'ENGAGEMENT',
  'ENGAGEMENT_RATE',
  'IMPRESSION',
  'OUTBOUND_CLICK',
  'OUTBOUND_CLICK_RATE',
  'PIN_CLICK',
  'PIN_CLICK_RATE',
  'SAVE',
  'SAVE_RATE',
  'TOTAL_COMMENTS',
  'TOTAL_REACTIONS',
  'USER_FOLLOW',
  'PROFILE_VISIT',
  'VIDEO_MRC_VIEW',
  'VIDEO_AVG_WATCH_TIME',
  'VIDEO_V50_WATCH_TIME',
  'VIDEO_START',
  'VIDEO_10S_VIEW',
  'QUARTILE_95_PERCENT_VIEW',
] as const;

const DAY_MS = 86_400_000;

export function declarePinterestEngagement(ctx: SandboxContext): void {
  // No commentId: the v5 API has no comment access.
  declareEngagement(ctx, 'pinterest', {});
}

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function dayParam(raw: string | undefined, name: string): number | ErrorAnswer {
  if (!raw) return pinError(400, 1, `Missing required parameter: ${name}`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`)))
    return pinError(400, 1, `Invalid ${name}: ${raw}. Format: YYYY-MM-DD.`);
  return Date.parse(`${raw}T00:00:00Z`);
}

export function registerPinterestEngagement(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/v5/boards/:board_id/pins',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, ['boards:read', 'pins:read']);
      if (!account) return reply;
      const boardId = (req.params as { board_id: string }).board_id;
      const board = assetsOf(account, 'board').find((b) => b.id === boardId);
      if (!board)
        return sendAnswer(
          reply,
          findAsset(call.slice, boardId)
            ? pinError(403, 7, 'Not authorized to access board or Pin.')
            : pinError(404, 40, 'Board not found.'),
        );
      const q = queryParams(req);
      const pins = objectsOf(call, 'posts', account.id).filter((p) => p.board_id === board.id);
      const out = pinPage(pins, q);
      if ('status' in out) return sendAnswer(reply, out);
      const withMetrics = q.pin_metrics === 'true';
      return reply.send({
        items: out.page.map((p) => pinView(call, p, account.username, withMetrics)),
        bookmark: out.bookmark,
      });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v5/pins/:pin_id/analytics',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, ['boards:read', 'pins:read']);
      if (!account) return reply;
      const pin = findObject(call, 'posts', (req.params as { pin_id: string }).pin_id);
      if (!pin || pin.accountId !== account.id) return sendAnswer(reply, pinError(404, 50, 'Pin not found.'));
      const q = queryParams(req);
      const start = dayParam(q.start_date, 'start_date');
      if (typeof start !== 'number') return sendAnswer(reply, start);
      const end = dayParam(q.end_date, 'end_date');
      if (typeof end !== 'number') return sendAnswer(reply, end);
      const today = Date.parse(`${isoDay(call.ctx.nowMs())}T00:00:00Z`);
      if (start < today - 90 * DAY_MS)
        return sendAnswer(reply, pinError(400, 1, 'start_date cannot be more than 90 days back from today.'));
      if (end < start) return sendAnswer(reply, pinError(400, 1, 'end_date cannot be before start_date.'));
      if (end - start > 90 * DAY_MS)
        return sendAnswer(reply, pinError(400, 1, 'end_date cannot be more than 90 days past start_date.'));
      if (!q.metric_types) return sendAnswer(reply, pinError(400, 1, 'Missing required parameter: metric_types'));
      const types = q.metric_types.split(',');
      const unknown = types.find((t) => !(PIN_METRIC_TYPES as readonly string[]).includes(t));
      if (unknown)
        return sendAnswer(
          reply,
          pinError(400, 1, `Invalid metric_types: '${unknown}' is not one of ${JSON.stringify(PIN_METRIC_TYPES)}`),
        );
      const m = metricsOf(call.slice, pin);
      const totals: Record<string, number> = {
        IMPRESSION: m.impressions,
        SAVE: m.shares,
        PIN_CLICK: 0,
        OUTBOUND_CLICK: 0,
        TOTAL_COMMENTS: m.comments,
        TOTAL_REACTIONS: m.likes,
      };
      const pick = (on: boolean) => Object.fromEntries(types.map((t) => [t, on ? (totals[t] ?? 0) : 0]));
      // The pin's numbers land on the day it was created (or the first day asked for, when it is older).
      const created = Date.parse(`${isoDay(Date.parse(pin.createdAt))}T00:00:00Z`);
      const landing = Math.max(created, start);
      const daily: JsonObject[] = [];
      for (let day = start; day <= end && day <= today; day += DAY_MS) {
        if (day < created) daily.push({ date: isoDay(day), data_status: 'BEFORE_PIN_CREATED' });
        else daily.push({ date: isoDay(day), data_status: 'READY', metrics: pick(day === landing) });
      }
      const inRange = landing <= Math.min(end, today);
      return reply.send({
        all: { daily_metrics: daily, summary_metrics: pick(inRange), lifetime_metrics: pick(true) },
      });
    },
  });
}
