import { signInFailureLimit } from '../../../lib/domain/session/session';
import { exampleIds as ids, exampleMessages as messages } from './examples';
import type { ErrorCase, ErrorExample, Example, OperationText } from './operations';

/*
 * The sign-in routes and the person's own routes (docs/api.md#sign-in; docs/adr/0013-member-sign-in.md). What every
 * settings route answers (401, 404, 403, 429, a body's 400, 500) the document adds by credential
 * (tools/openapi/document/document.ts): these list only what their use cases add.
 */

const weakPassword: ErrorExample = {
  summary: 'New password too weak',
  message: messages.weakPassword,
  details: { field: 'new_password', message: messages.weakPassword },
};

const newPasswordError: ErrorCase = {
  description: '`new_password` does not follow the password policy (`details.field` names it).',
  examples: [weakPassword],
};

const workspaces = [{ id: ids.workspace, name: 'Acme', role: 'admin', member_id: ids.member }];

const example = (summary: string, value: unknown): Record<string, Example> => ({ answer: { summary, value } });

const accessToken = 'eyJraWQiOiJ…';

export const signInOperations: Record<string, OperationText> = {
  signIn: {
    summary: 'Sign in: open a session',
    description:
      'Checks the e-mail and password with the identity provider and answers an access token (an hour) for the ' +
      'settings API, a refresh token (30 days), the person and their workspaces. A wrong password and an unknown ' +
      `e-mail get the same 401. More than ${signInFailureLimit} failed sign-ins of one e-mail within 15 minutes: 429, ` +
      'whatever the password. At the first sign-in with the temporary password of the invitation, send ' +
      '`new_password` too (409 asks for it).',
    requestBody: {
      schema: 'SignIn',
      description: 'The address and password.',
      examples: {
        signIn: { summary: 'Sign in', value: { email: 'alice.martin@acme.test', password: 'Mot-de-passe-1!' } },
        firstSignIn: {
          summary: 'First sign-in, with the temporary password',
          value: { email: 'alice.martin@acme.test', password: 'Provisoire-A1!', new_password: 'Mot-de-passe-1!' },
        },
      },
    },
    success: {
      200: {
        description: 'Signed in.',
        schema: 'Session',
        examples: example('The session and the workspaces', {
          access_token: accessToken,
          refresh_token: 'eyJjdHkiOiJKV1Qi…',
          expires_in: 3600,
          member: { email: 'alice.martin@acme.test', name: 'Alice Martin' },
          workspaces,
        }),
      },
    },
    errors: {
      400: {
        description: 'An address that is none, or `new_password` not following the password policy.',
        examples: [weakPassword],
      },
      401: {
        description: 'Wrong e-mail or password (the same answer for both).',
        examples: [{ summary: 'Refused', message: messages.signInRefused }],
      },
      409: {
        description: 'A temporary password: send it again with `new_password`.',
        examples: [
          {
            summary: 'New password required',
            message: messages.newPasswordRequired,
            details: { field: 'new_password', message: messages.newPasswordRequired },
          },
        ],
      },
      429: {
        description:
          `More than ${signInFailureLimit} failed sign-ins of this e-mail within the current 15 minutes (or the ` +
          "identity provider's own lock): retry after `Retry-After` seconds.",
        examples: [{ summary: 'Too many attempts', message: messages.tooManySignIns }],
        retryAfter: 'always',
      },
    },
  },
  refreshSession: {
    summary: 'Renew the access token',
    description:
      'A new access token from the refresh token of `POST /session`, as long as the session lasts (30 days) and ' +
      'no sign-out, password change from another session or password reset has ended it since it began.',
    requestBody: {
      schema: 'SessionRefresh',
      description: 'The refresh token.',
      examples: { refresh: { summary: 'Refresh', value: { refresh_token: 'eyJjdHkiOiJKV1Qi…' } } },
    },
    success: {
      200: {
        description: 'A new access token.',
        schema: 'RefreshedSession',
        examples: example('A new access token', { access_token: accessToken, expires_in: 3600 }),
      },
    },
    errors: {
      401: {
        description:
          'A refresh token unknown, expired, or of a session ended by `DELETE /session`, a password change from ' +
          'another session or a password reset: sign in again.',
        examples: [{ summary: 'Refused', message: messages.refreshRefused }],
      },
    },
  },
  signOut: {
    summary: 'Sign out everywhere',
    description:
      'From the next call, the access tokens issued until now (this one included) and the refresh tokens of every ' +
      'session begun before are refused. The identity provider signs the person out too, everywhere. Signing in ' +
      'again opens a new session.',
    success: { 204: { description: 'Signed out; no body.' } },
    errors: {},
  },
  changePassword: {
    summary: 'Change the password',
    description:
      'Checks the current password and sets the new one. From the next call, every other session of the person ' +
      'is ended (its access tokens and its refresh token are refused); this one stays, its access token and its ' +
      'refresh token keep working.',
    requestBody: {
      schema: 'PasswordChange',
      description: 'The current password and the new one.',
      examples: {
        change: { summary: 'Change', value: { password: 'Mot-de-passe-1!', new_password: 'Nouveau-secret-2?' } },
      },
    },
    success: { 204: { description: 'Changed; no body.' } },
    errors: {
      400: newPasswordError,
      401: {
        description: 'Or the current password is wrong.',
        examples: [{ summary: 'Wrong current password', message: messages.wrongPassword }],
      },
    },
  },
  startPasswordReset: {
    summary: 'Forgotten password: send a code',
    description:
      'The identity provider e-mails a code to the address, if it belongs to someone: the answer is the same ' +
      'either way, even when the provider will not send one for now (its limits), so that it tells nobody whether ' +
      'an address is known.',
    requestBody: {
      schema: 'PasswordReset',
      description: 'The address.',
      examples: { reset: { summary: 'Forgotten password', value: { email: 'alice.martin@acme.test' } } },
    },
    success: {
      202: {
        description: 'Accepted: an e-mail is on its way if the address is known.',
        schema: 'PasswordResetStarted',
        examples: {
          deployed: { summary: 'Deployed', value: {} },
          local: { summary: 'Local API (`npm start`): the code of the e-mail', value: { code: '123456' } },
        },
      },
    },
    errors: {},
  },
  confirmPasswordReset: {
    summary: 'Forgotten password: set a new one with the code',
    description:
      'The code of the e-mail and the new password; then sign in with it. Every session of the person is ended ' +
      '(from the next call, their access tokens and refresh tokens are refused).',
    requestBody: {
      schema: 'PasswordResetConfirmation',
      description: 'The address, the code and the new password.',
      examples: {
        confirm: {
          summary: 'New password',
          value: { email: 'alice.martin@acme.test', code: '123456', new_password: 'Nouveau-secret-2?' },
        },
      },
    },
    success: { 204: { description: 'Password set; no body.' } },
    errors: {
      400: {
        description:
          'A wrong or expired code, or one tried too often (the same answer), or a new password not following the ' +
          'policy (`details.field` names it).',
        examples: [
          {
            summary: 'Wrong code',
            message: messages.badResetCode,
            details: { field: 'code', message: messages.badResetCode },
          },
          weakPassword,
        ],
      },
    },
  },
  listMyWorkspaces: {
    summary: "List the signed-in person's workspaces",
    description: 'Every workspace the person is a member of, with their role and member id there.',
    success: {
      200: {
        description: 'The workspaces (none: an empty list).',
        schema: 'MyWorkspaces',
        examples: example('One workspace', { workspaces }),
      },
    },
    errors: {},
  },
};
