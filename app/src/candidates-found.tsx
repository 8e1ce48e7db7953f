import { PersonRights } from './person-rights';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';

export type Candidate = components['schemas']['CandidateList']['candidates'][number];

/** What a candidate is called on the page: first and last name, else the e-mail they applied with. */
const candidateName = (candidate: Candidate) =>
  [candidate.first_name, candidate.last_name].filter(Boolean).join(' ') || candidate.email;

/**
 * The candidates of the address « Prospects » searched (`GET …/candidates?email=`, one per recruitment pipeline the
 * person applied to), each with its position and when it applied; an admin exports or erases each (`PersonRights`).
 * The page reads the sales pipelines only, so a candidate's recruitment pipeline is not named.
 */
export function CandidatesFound({
  workspace,
  candidates,
  onErased,
}: {
  workspace: Workspace;
  candidates: readonly Candidate[];
  onErased: (candidate: Candidate) => void;
}) {
  const words = texts.candidates;
  return (
    <section aria-labelledby="candidates-heading">
      <h3 id="candidates-heading">{words.heading}</h3>
      <Table
        caption={words.heading}
        columns={[words.name, words.position, words.received]}
        rows={candidates.map((candidate) => ({
          key: candidate.id,
          cells: [
            candidateName(candidate),
            candidate.position ?? texts.changes.empty,
            texts.date(candidate.created_at),
          ],
          ...(workspace.role === 'admin'
            ? {
                actions: (
                  <PersonRights
                    workspace={workspace}
                    person={{
                      kind: 'candidate',
                      id: candidate.id,
                      name: candidateName(candidate),
                      contact: candidate.email,
                    }}
                    onErased={() => onErased(candidate)}
                  />
                ),
              }
            : {}),
        }))}
      />
    </section>
  );
}
