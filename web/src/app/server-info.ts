// What the server says about itself that the app needs everywhere: whether it runs in sandbox mode
// (GET /unified/platforms' top level).
import { usePlatforms } from '../api/platforms.ts';

export function useServerInfo() {
  const platforms = usePlatforms();
  return { data: platforms.data ? { sandbox: platforms.data.sandbox } : undefined };
}
