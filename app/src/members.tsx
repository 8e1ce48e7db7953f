import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { CopyableId } from './copyable-value';
import { SecretOnce } from './secret-once';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';

type Member = components['schemas']['Member'];
type Role = Member['role'];
type Invited = components['schemas']['InvitedMember'];

const roles: readonly Role[] = ['member', 'admin'];
const roleNames: Record<Role, string> = texts.workspaces.role;

/** A member as listed, without the invitation's outcome and temporary password, which only the shown-once box holds. */
const listed = ({ id, email, name, role, can_sign_in }: Invited): Member => ({ id, email, name, role, can_sign_in });

/**
 * The workspace's members (admin only, docs/api.md#settings-page), removed ones included as the API lists them, each
 * with its id to copy (what an integration names a setter or a closer by): an
 * admin adds one (invited), invites one again, changes a role and removes one after confirming. The API's refusals (the
 * last admin demoted or removed: 409) are shown as it words them.
 */
export function Members({ workspace }: { workspace: Workspace }) {
  const [members, setMembers] = useState<Member[]>();
  const [temporary, setTemporary] = useState<{ email: string; password: string }>();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const path = { workspace_id: workspace.id };

  useEffect(() => {
    void api.GET('/workspaces/{workspace_id}/members', { params: { path } }).then(({ data, error }) => {
      if (data) setMembers(data.members);
      else setFailure(messageOf(error));
    });
  }, [workspace.id]);

  const replace = (member: Member) =>
    setMembers((known) => known?.map((each) => (each.id === member.id ? { ...each, ...member } : each)));

  /**
   * The invitation's answer: on AWS the identity provider e-mails the password; locally the API answers it; a person
   * who already chose a password is not invited (`invited: false`) and keeps it.
   */
  const invited = ({ invited: sent, temporary_password: password, email: address, name }: Invited) => {
    setFailure(undefined);
    const email = address ?? name;
    setTemporary(password === undefined ? undefined : { email, password });
    if (!sent) return setStatus(texts.members.notInvited(email));
    setStatus(password === undefined ? texts.members.invitedByEmail(email) : texts.members.invitedHere(email));
  };

  const add = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    const name = String(fields.get('name')).trim();
    const { data, error } = await api.POST('/workspaces/{workspace_id}/members', {
      params: { path },
      body: { email: String(fields.get('email')), role: fields.get('role') as Role, ...(name ? { name } : {}) },
    });
    if (!data) return setFailure(messageOf(error));
    setMembers((known) => [...(known ?? []), listed(data)]);
    invited(data);
    form.reset();
  };

  const inviteAgain = async (member: Member) => {
    const { data, error } = await api.POST('/workspaces/{workspace_id}/members/{member_id}/invite', {
      params: { path: { ...path, member_id: member.id } },
    });
    if (!data) return setFailure(messageOf(error));
    replace(listed(data));
    invited(data);
  };

  const changeRole = async (member: Member, role: Role): Promise<boolean> => {
    const { data, error } = await api.PATCH('/workspaces/{workspace_id}/members/{member_id}', {
      params: { path: { ...path, member_id: member.id } },
      body: { role },
    });
    if (!data) {
      setFailure(messageOf(error));
      return false;
    }
    setFailure(undefined);
    replace(data);
    setStatus(texts.members.roleChanged(data.name, roleNames[data.role]));
    return true;
  };

  const remove = async (member: Member) => {
    if (!window.confirm(texts.members.confirmRemove(texts.members.who(member.name, member.email)))) return;
    const { data, error } = await api.DELETE('/workspaces/{workspace_id}/members/{member_id}', {
      params: { path: { ...path, member_id: member.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    replace({ ...member, can_sign_in: data.can_sign_in });
    setStatus(texts.members.removed(member.name));
  };

  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">{texts.members.heading}</h2>
      {temporary && (
        <SecretOnce
          label={texts.members.temporaryPassword(temporary.email)}
          value={temporary.password}
          onDismiss={() => setTemporary(undefined)}
        />
      )}
      {members === undefined && !failure && <p>{texts.loading}</p>}
      {members?.length === 0 && <p>{texts.members.none}</p>}
      {members && members.length > 0 && (
        <Table
          caption={texts.members.heading}
          columns={[
            texts.members.name,
            texts.members.email,
            texts.members.role,
            texts.members.access,
            texts.members.idColumn,
          ]}
          rows={members.map((member) => {
            const who = texts.members.who(member.name, member.email);
            return {
              key: member.id,
              cells: [
                <strong>{member.name}</strong>,
                member.email ?? texts.members.noEmail,
                <RoleField key={`${member.id} ${member.role}`} member={member} onRoleChange={changeRole} />,
                member.can_sign_in ? texts.members.canSignIn : texts.members.cannotSignIn,
                <CopyableId id={member.id} label={texts.members.copyId(who)} />,
              ],
              actions: (
                <>
                  {member.email !== null && (
                    <button
                      type="button"
                      class="secondary"
                      aria-label={texts.members.invite(who)}
                      onClick={() => void inviteAgain(member)}
                    >
                      {texts.members.inviteShort}
                    </button>
                  )}
                  {member.can_sign_in && (
                    <button
                      type="button"
                      class="danger"
                      aria-label={texts.members.remove(who)}
                      onClick={() => void remove(member)}
                    >
                      {texts.members.removeShort}
                    </button>
                  )}
                </>
              ),
            };
          })}
        />
      )}
      <form onSubmit={(event) => void add(event)}>
        <h3>{texts.members.add.heading}</h3>
        <label for="member-email">{texts.members.add.email}</label>
        <input id="member-email" name="email" type="email" required autoComplete="off" />
        <label for="member-name">{texts.members.add.name}</label>
        <input id="member-name" name="name" autoComplete="off" />
        <label for="member-role">{texts.members.add.role}</label>
        <select id="member-role" name="role">
          {roles.map((role) => (
            <option key={role} value={role}>
              {roleNames[role]}
            </option>
          ))}
        </select>
        <button type="submit">{texts.members.add.submit}</button>
      </form>
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}

/**
 * A member's role, changed with a field and a button (a select that saved on every change would save each option the
 * keyboard's arrows pass through); both named with the member for assistive technology, the column naming them on
 * screen. Refused (the last admin demoted: 409), the field shows again the role the member still has.
 */
function RoleField({
  member,
  onRoleChange,
}: {
  member: Member;
  onRoleChange: (member: Member, role: Role) => Promise<boolean>;
}) {
  const who = texts.members.who(member.name, member.email);
  const [role, setRole] = useState(member.role);
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!(await onRoleChange(member, role))) setRole(member.role);
  };
  return (
    <form class="inline compact" onSubmit={(event) => void save(event)}>
      <select
        aria-label={texts.members.roleOf(who)}
        value={role}
        onChange={(event) => setRole((event.currentTarget as HTMLSelectElement).value as Role)}
      >
        {roles.map((choice) => (
          <option key={choice} value={choice}>
            {roleNames[choice]}
          </option>
        ))}
      </select>
      <button type="submit" class="secondary" aria-label={texts.members.saveRole(who)}>
        {texts.members.saveRoleShort}
      </button>
    </form>
  );
}
