// LinkedIn's read side (Community Management API): comments under a post or a comment
// (GET|POST /rest/socialActions/{urn}/comments), reaction and comment counts (GET /rest/socialMetadata/{urn} and the
// batch ?ids=List(…)), an organization's per-post statistics (GET /rest/organizationalEntityShareStatistics), a
// member's own post statistics (GET /rest/memberCreatorPostAnalytics, r_member_postAnalytics) and commenters' names
// (GET /v2/people?ids=List((id:…))). Reading an organization's posts and comments needs
// r_organization_social and a role on it; a member's own, the closed r_member_social. Comments are written as the
// member (w_member_social) or an organization they administer (w_organization_social); threads are two levels deep;
// a comment's text is at most 1,250 characters.
//
// The comment routes are in comments.ts, the metric routes in statistics.ts, the shapes they share in
// social-views.ts; commenters' names are read here.
import { bearerToken, queryParams } from '../core/http.ts';
import { text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { JsonObject } from '../core/types.ts';
import { declareLinkedInEngagement, registerLinkedInComments } from './comments.ts';
import { apiError, tokenError } from './errors.ts';
import { restliList } from './social-views.ts';
import { registerLinkedInStatistics } from './statistics.ts';

export { declareLinkedInEngagement } from './comments.ts';
export { MAX_COMMENT_CHARS, activityOf } from './social-views.ts';

/** A member known to the sandbox: a commenter (by the name they commented under) or the connected member. */
function personName(call: Call, id: string): string | null {
  const urn = `urn:li:person:${id}`;
  const comments = [...call.slice.comments.values()].filter((c) => c.authorId === urn);
  const last = comments[comments.length - 1];
  if (last) return text(last.authorName);
  return call.slice.accounts.get(id)?.name ?? null;
}

export function registerLinkedInEngagement(sim: Simulator): void {
  declareLinkedInEngagement(sim.ctx);
  registerLinkedInComments(sim);
  registerLinkedInStatistics(sim);

  addRoute(sim, {
    method: 'GET',
    url: '/v2/people',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const checked = checkToken(call, bearerToken(req), ['access']);
      if (!checked.ok) return sendAnswer(reply, tokenError(checked.problem));
      const ids = restliList(queryParams(req).ids);
      const keys = ids?.map((k) => /^\(id:([A-Za-z0-9_-]+)\)$/.exec(k));
      if (!keys || keys.some((k) => !k))
        return sendAnswer(reply, apiError(400, 'ILLEGAL_ARGUMENT', 'ids must be List((id:{person id}),…)'));
      const results: JsonObject = {};
      const statuses: JsonObject = {};
      const errors: JsonObject = {};
      for (const k of keys) {
        const id = k![1]!;
        const key = `(id:${id})`;
        const name = personName(call, id);
        if (name === null) {
          errors[key] = { status: 404, message: 'Not Found' };
          statuses[key] = 404;
          continue;
        }
        const [first = name, ...rest] = name.split(' ');
        results[key] = { id, localizedFirstName: first, localizedLastName: rest.join(' ') };
        statuses[key] = 200;
      }
      return reply.send({ results, statuses, errors });
    },
  });
}
