import { placeNewLead } from '../../lib/domain/lead/ingest-lead';
import type { SalesPipelineItem } from '../../lib/storage/workspace-config';

const pipeline = (
  id: string,
  name: string,
  stages: string[],
  extra: Partial<SalesPipelineItem> = {},
): SalesPipelineItem => ({
  type: 'pipeline',
  id,
  name,
  is_default: false,
  active: true,
  position: 0,
  stages: stages.map((stage, order) => ({ id: `${id}-s${order}`, name: stage, type: 'Follow up', order })),
  ...extra,
});

const sales = pipeline('p1', 'Ventes', ['Nouveau', 'Relance', 'Closé', 'Acompte'], { is_default: true, position: 1 });
const coaching = pipeline('p2', 'Coaching', ['Découverte', 'Appel'], { position: 2 });
const archived = pipeline('p3', 'Archives', ['Vieux'], { active: false, position: 3 });
const pipelines = [coaching, sales, archived];

describe('placement of a new lead', () => {
  it('honours a pipeline and stage found by name, ignoring case, or by id', () => {
    expect(placeNewLead(pipelines, { pipeline: 'coaching', stage: 'APPEL' })).toEqual({
      kind: 'demande',
      pipelineId: 'p2',
      stageId: 'p2-s1',
      warnings: [],
    });
    expect(placeNewLead(pipelines, { pipeline: 'p2', stage: 'p2-s1' }).kind).toBe('demande');
  });

  it('puts a lead naming only a pipeline at its first stage', () => {
    expect(placeNewLead(pipelines, { pipeline: 'Coaching' })).toMatchObject({ kind: 'demande', stageId: 'p2-s0' });
  });

  it('looks a stage without pipeline up in the default pipeline', () => {
    expect(placeNewLead(pipelines, { stage: 'relance' })).toMatchObject({
      kind: 'demande',
      pipelineId: 'p1',
      stageId: 'p1-s1',
    });
  });

  it('sends a lead naming nothing to the default pipeline, first stage', () => {
    expect(placeNewLead(pipelines, {})).toEqual({ kind: 'defaut', pipelineId: 'p1', stageId: 'p1-s0', warnings: [] });
  });

  it.each([
    [{ pipeline: 'Ventez' }, 'Pipeline « Ventez » introuvable'],
    [{ pipeline: 'Archives' }, 'Pipeline « Archives » introuvable'],
    [{ pipeline: 'Coaching', stage: 'Inconnue' }, 'Étape « Inconnue » introuvable dans le pipeline « Coaching »'],
    [{ stage: 'Closé' }, "L'étape « Closé » est réservée"],
    [{ pipeline: 'Ventes', stage: 'acompte' }, "L'étape « Acompte » est réservée"],
  ])('sends %j to the default pipeline with a warning', (request, warning) => {
    const placement = placeNewLead(pipelines, request);
    expect(placement).toMatchObject({ kind: 'defaut', pipelineId: 'p1', stageId: 'p1-s0' });
    expect(placement.warnings).toEqual([expect.stringContaining(warning)]);
  });

  it('takes the first active pipeline when none is marked default', () => {
    expect(placeNewLead([coaching, archived], {})).toMatchObject({ kind: 'defaut', pipelineId: 'p2' });
  });

  it('places nothing in a workspace without an active pipeline', () => {
    expect(placeNewLead([archived], {})).toEqual({ kind: 'aucun', pipelineId: null, stageId: null, warnings: [] });
    expect(placeNewLead([], { pipeline: 'Ventes' }).warnings).toHaveLength(1);
  });
});
