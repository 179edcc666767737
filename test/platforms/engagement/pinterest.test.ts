import { PROFILES } from '../contract/profiles.ts';
import { describeEngagementContract } from './engagement-contract.ts';

// pin_metrics give impressions, reactions (likes) and comments; saves (shares) come from the pin's analytics.
describeEngagementContract(PROFILES.pinterest, { postType: 'image', metrics: ['likes', 'shares', 'impressions'] });
