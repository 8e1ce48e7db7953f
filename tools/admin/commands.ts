import type { Command } from './command';
import { apiKeyCommands } from './commands/api-keys';
import { candidateReindexCommand, candidateShowCommand } from './commands/candidates';
import {
  candidateEraseCommand,
  candidateExportCommand,
  prospectEraseCommand,
  prospectExportCommand,
} from './commands/person-rights';
import { changelogListCommand, changelogUndoCommand } from './commands/changelog';
import { configCommands } from './commands/config';
import { prospectReindexCommand, prospectShowCommand } from './commands/prospects';
import { seedCommand } from './commands/seed';
import { streamReplayCommand } from './commands/stream-replay';
import { subscriptionCommands } from './commands/subscriptions';
import { webhookCallCommands } from './commands/webhook-calls';
import { webhookCommands } from './commands/webhooks';
import { workspaceCommands } from './commands/workspaces';

/** Every admin command; a new one is a file under commands/ and a line here. */
export const commands: readonly Command[] = [
  seedCommand,
  ...workspaceCommands,
  ...apiKeyCommands,
  ...webhookCommands,
  ...webhookCallCommands,
  ...subscriptionCommands,
  streamReplayCommand,
  ...configCommands,
  prospectShowCommand,
  prospectExportCommand,
  prospectEraseCommand,
  prospectReindexCommand,
  candidateShowCommand,
  candidateExportCommand,
  candidateEraseCommand,
  candidateReindexCommand,
  changelogListCommand,
  changelogUndoCommand,
];
