// Threads profiles through the Threads API (graph.threads.net).
export { network, threadsAdapter } from './network.ts';
export { THREADS_API_VERSION, THREADS_SCOPES } from './config.ts';
