import { PROFILES } from '../contract/profiles.ts';
import { describeEngagementContract } from './engagement-contract.ts';

// The Display API lists public video posts only, so the suite posts a public video (the sandbox's app counts as
// audited). TikTok counts likes, shares and views (as impressions); comments and deletion are not in its public APIs.
describeEngagementContract(PROFILES.tiktok, {
  postType: 'video',
  metrics: ['likes', 'shares', 'impressions'],
  request: () => ({ options: { privacy_level: 'PUBLIC_TO_EVERYONE' } }),
  lenient: ['tiktok_unaudited'],
});
