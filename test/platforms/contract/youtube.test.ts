import { describeAdapterContract } from './adapter-contract.ts';
import { PROFILES } from './profiles.ts';

describeAdapterContract(PROFILES.youtube);
