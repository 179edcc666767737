import { PROFILES } from '../contract/profiles.ts';
import { describeEngagementContract } from './engagement-contract.ts';

// The sample text goes into the pin's description (the profile's fixed one would hide it). pin_metrics give
// impressions, reactions (likes) and comments; saves (shares) come from the pin's analytics.
describeEngagementContract(PROFILES.pinterest, {
  postType: 'image',
  metrics: ['likes', 'shares', 'impressions'],
  request: () => ({ description: undefined }),
});
