// The tool registry, and the one place that says which surface lists which tool (interface "GPT Actions",
// contract-gaps §8): GPT Actions omit web search, clear_workspace_chat_history, import_posts and the posting-queue
// tools (their operations are the contract's); MCP has web search and omits clear_workspace_chat_history; the agent
// has every tool. The web-search tool is listed only when configured.
import type { ToolServices } from './services.ts';
import { getAccounts } from './get-accounts.ts';
import { getUserPosts } from './get-user-posts.ts';
import { getQueuedPosts } from './get-queued-posts.ts';
import { getUnifiedAnalytics } from './get-unified-analytics.ts';
import { getComments } from './get-comments.ts';
import { replyToComment } from './reply-to-comment.ts';
import { managePlatformConnection } from './manage-platform-connection.ts';
import { ideaToContent } from './idea-to-content.ts';
import { contentToImage } from './content-to-image.ts';
import { mediaToContent } from './media-to-content.ts';
import { analyzeMedia } from './analyze-media.ts';
import { publish } from './publish.ts';
import { importPosts } from './import-posts.ts';
import { addToQueue } from './add-to-queue.ts';
import { getQueue } from './get-queue.ts';
import { uploadMedia } from './upload-media.ts';
import { disconnectGptConnector } from './disconnect-gpt-connector.ts';
import { clearWorkspaceChatHistory } from './clear-workspace-chat-history.ts';
import { webSearchSearxng } from './web-search-searxng.ts';
import type { Surface, Tool, ToolCaller } from './tool.ts';
import { invokeTool, type Invocation, type InvokeOptions } from './invoke.ts';

/** Every tool, in the order surfaces list them. */
export const TOOLS: readonly Tool[] = [
  getAccounts,
  getQueuedPosts,
  getUserPosts,
  getUnifiedAnalytics,
  getComments,
  replyToComment,
  managePlatformConnection,
  ideaToContent,
  contentToImage,
  mediaToContent,
  analyzeMedia,
  publish,
  importPosts,
  addToQueue,
  getQueue,
  uploadMedia,
  disconnectGptConnector,
  webSearchSearxng,
  clearWorkspaceChatHistory,
];

/** Tools a surface does not list, by name (prefix match for the web-search family). */
const OMITTED: Record<Surface, readonly string[]> = {
  gpt: ['web_search_', 'clear_workspace_chat_history', 'import_posts', 'add_to_queue', 'get_queue'],
  mcp: ['clear_workspace_chat_history'],
  agent: [],
};

/** Whether a tool can run on this server (the web-search tool needs HERALD_SEARXNG_URL). */
export type Availability = (tool: Tool, app: ToolServices) => boolean;

/** The default: what the tool itself says about this server's configuration. */
export const configured: Availability = (tool, app) => tool.available?.(app) ?? true;

export function toolsFor(surface: Surface, app: ToolServices, available: Availability = configured): Tool[] {
  return TOOLS.filter(
    (t) => !OMITTED[surface].some((o) => (o.endsWith('_') ? t.name.startsWith(o) : t.name === o)) && available(t, app),
  );
}

export function toolNamed(surface: Surface, app: ToolServices, name: string): Tool | undefined {
  return toolsFor(surface, app).find((t) => t.name === name);
}

/** The tool layer bound to its services, as a surface built by the composition root (the agent) receives it. */
export interface ToolBox {
  /** The tools this surface lists on this server. */
  list(surface: Surface): Tool[];
  /** Validates, runs and reports one call (invoke.ts). */
  invoke(tool: Tool, raw: unknown, caller: ToolCaller, opts?: InvokeOptions): Promise<Invocation>;
}

export const toolBox = (services: ToolServices): ToolBox => ({
  list: (surface) => toolsFor(surface, services),
  invoke: (tool, raw, caller, opts) => invokeTool(services, tool, raw, caller, opts),
});
