import { describeEngagementContract } from './engagement-contract.ts';
import { PROFILES } from '../contract/profiles.ts';

// The sample text goes into the description (the profile's fixed one would hide it): a video's words are its title and
// description. YouTube counts views and likes (and comments); it reports no shares.
describeEngagementContract(PROFILES.youtube, {
  postType: 'video',
  metrics: ['likes', 'impressions'],
  request: () => ({ description: undefined }),
});
