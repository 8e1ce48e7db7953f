import { canSignIn, memberView } from '../../lib/settings/member-list';
import {
  decideAddition,
  decideRemoval,
  decideRoleChange,
  isLastAdmin,
  readRole,
  temporaryPassword,
} from '../../lib/settings/members';
import { ConflictError, InvalidInputError, NotFoundError, type Member } from '../../lib/domain/model';

/** docs/api.md#sign-in, #members: the rules of members and roles, as pure decisions on the configuration's members. */

const admin: Member = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Alice',
  email: 'alice@acme.test',
  role: 'admin',
};
const member: Member = {
  id: '00000000-0000-4000-8000-000000000002',
  name: 'Bob',
  email: 'bob@acme.test',
  role: 'member',
};
const noEmailAdmin: Member = { id: '00000000-0000-4000-8000-000000000003', name: 'Carla', email: null, role: 'admin' };
const legacy: Member = { id: '00000000-0000-4000-8000-000000000004', name: 'Dan', email: 'dan@acme.test' };
const now = '2026-11-27T04:00:00.000Z';

test('a member stored before roles is a member; one without e-mail, or removed, cannot sign in', () => {
  expect(memberView(legacy)).toEqual({
    id: legacy.id,
    email: 'dan@acme.test',
    name: 'Dan',
    role: 'member',
    can_sign_in: true,
  });
  expect(canSignIn(noEmailAdmin)).toBe(false);
  expect(canSignIn({ ...member, removed_at: now })).toBe(false);
});

test('the last admin is the only admin who can sign in; an admin without e-mail does not count', () => {
  expect(isLastAdmin([admin, member, noEmailAdmin], admin)).toBe(true);
  expect(isLastAdmin([admin, { ...member, role: 'admin' }], admin)).toBe(false);
  expect(isLastAdmin([admin, { ...member, role: 'admin', removed_at: now }], admin)).toBe(true);
  expect(isLastAdmin([admin, member], member)).toBe(false);
});

test('demoting or removing the last admin is refused; another admin makes both possible', () => {
  expect(() => decideRoleChange([admin, member], admin.id, 'member')).toThrow(ConflictError);
  expect(() => decideRemoval([admin, member], admin.id, now)).toThrow(ConflictError);
  expect(decideRoleChange([admin, member], admin.id, 'admin')).toEqual([admin, member]);
  const two = [admin, { ...member, role: 'admin' as const }];
  expect(decideRoleChange(two, admin.id.toUpperCase(), 'member')[0]).toEqual({ ...admin, role: 'member' });
  expect(decideRemoval(two, admin.id, now)[0]).toEqual({ ...admin, removed_at: now });
  expect(() => decideRoleChange([admin, { ...member, removed_at: now }], member.id, 'admin')).toThrow(ConflictError);
  expect(() => decideRemoval([admin], 'pas-un-uuid', now)).toThrow(NotFoundError);
});

test('an e-mail already a member, ignoring case and spaces, is refused; a removed member frees it', () => {
  const added = {
    id: '00000000-0000-4000-8000-000000000009',
    name: 'B',
    email: ' BOB@Acme.TEST',
    role: 'member' as const,
  };
  expect(() => decideAddition([admin, member], added)).toThrow(ConflictError);
  expect(decideAddition([admin, { ...member, removed_at: now }], added)).toHaveLength(3);
});

test('a role is admin or member', () => {
  expect(readRole(' admin ')).toBe('admin');
  expect(() => readRole('owner')).toThrow(InvalidInputError);
});

test('a temporary password meets the default policy of Cognito, and is drawn anew each time', () => {
  const passwords = Array.from({ length: 50 }, temporaryPassword);
  for (const password of passwords) {
    expect(password).toHaveLength(20);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[a-z]/);
    expect(password).toMatch(/[0-9]/);
    expect(password).toMatch(/[!#%*+\-=?@_]/);
  }
  expect(new Set(passwords).size).toBe(50);
});
