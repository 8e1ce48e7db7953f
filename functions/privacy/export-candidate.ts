import { answerPersonExport, type ExportDeps } from '../../lib/domain/export/person-exports';
import { createS3Client, createS3ExportStore, loadExportBucketName } from '../../lib/exports/s3-export-store';
import { loadConfig, productionDeps } from '../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../lib/http/middleware/member-gate';
import { json } from '../../lib/http/middleware/route';
import { pathIdOf } from '../../lib/http/request-input';
import { messages } from '../../lib/messages';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: ExportDeps) =>
  settingsRoute(routeById('exportWorkspaceCandidate'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    const recordId = pathIdOf(event, 'candidate_id', messages.candidate.notFound);
    return json(200, await answerPersonExport(deps, { workspaceId, kind: 'candidate', recordId, memberId }));
  });

const config = loadConfig();
export const handler = createHandler({
  ...productionDeps(config),
  exports: createS3ExportStore(createS3Client(config.region), loadExportBucketName()),
});
