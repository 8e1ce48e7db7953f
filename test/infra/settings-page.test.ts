import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import {
  emptyBodyTemplate,
  errorResponses,
  pageDeployments,
  pageRedirectTemplate,
  staticValue,
  templateMediaType,
  writeSettingsPage,
} from '../../infra/cdk/constructs/settings-page';
import {
  assetCacheControl,
  contentTypes,
  indexCacheControl,
  indexFile,
  missingFileHeaders,
  pageHeaders,
  pagePath,
  pageResourcePaths,
} from '../../infra/cdk/settings-page';
import { CrmStack } from '../../infra/cdk/stack';
import { localSettingsPage } from '../../tools/app/page';
import { testApp } from '../support/cdk-app';
import { pageBucketIds } from '../support/settings-page-resources';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const stack = new CrmStack(testApp(), 'Crm-page', { stage: 'test' });
const template = Template.fromStack(stack).toJSON();
const resources = template.Resources as Record<string, Json>;
const ofType = (type: string): [string, Json][] => Object.entries(resources).filter(([, r]) => r.Type === type);

const [bucketId] = [...pageBucketIds(resources)] as [string];
const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };

/** Full paths of the API's resources, rebuilt from their PathPart and ParentId. */
function resourcePath(resourceId: string): string {
  const resource = resources[resourceId]!;
  const parent = resource.Properties.ParentId as Json;
  const prefix = parent.Ref ? resourcePath(parent.Ref as string) : '';
  return `${prefix}/${resource.Properties.PathPart as string}`;
}
const methodAt = (path: string): Json => {
  const found = ofType('AWS::ApiGateway::Method').filter(
    ([, method]) => resourcePath(method.Properties.ResourceId.Ref as string) === path,
  );
  expect(found).toHaveLength(1);
  return found[0]![1].Properties as Json;
};
const pageMethod = methodAt(pageResourcePaths.page);
const filesMethod = methodAt(pageResourcePaths.files);
const pageMethods: [string, Json][] = [
  ['GET /app', pageMethod],
  ['GET /app/{proxy+}', filesMethod],
];

const responseOf = (method: Json, statusCode: string): Json =>
  (method.Integration.IntegrationResponses as Json[]).find((response) => response.StatusCode === statusCode)!;
const header = (name: string) => `method.response.header.${name}`;
/** The headers an integration response sets to a static value, without the quotes API Gateway takes off. */
const staticHeaders = (response: Json): Record<string, string> =>
  Object.fromEntries(
    Object.entries(response.ResponseParameters as Record<string, string>)
      .filter(([, value]) => value.startsWith("'"))
      .map(([key, value]) => [key.replace('method.response.header.', ''), value.slice(1, -1)]),
  );

const deployments = ofType('Custom::CDKBucketDeployment');
const deploymentOf = (include: string): [string, Json] =>
  deployments.find(([, deployment]) => (deployment.Properties.Include as string[]).includes(include))!;

describe('the page’s two methods', () => {
  test('only these two methods of the API have no authorizer: GET, no authorization at all', () => {
    const withoutAuthorizer = ofType('AWS::ApiGateway::Method')
      .filter(([, method]) => method.Properties.AuthorizationType !== 'CUSTOM')
      .map(
        ([, method]) => `${method.Properties.HttpMethod as string} ${resourcePath(method.Properties.ResourceId.Ref)}`,
      );
    expect(withoutAuthorizer.sort()).toEqual(pageMethods.map(([name]) => name).sort());
    for (const [, method] of pageMethods) {
      expect(method.AuthorizationType).toBe('NONE');
      expect(method).not.toHaveProperty('AuthorizerId');
    }
  });

  test('each reads S3 with the page’s role: the page’s own key, or the path under /app/ as the key', () => {
    const s3Path = (key: string) => ({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':apigateway:',
          { Ref: 'AWS::Region' },
          ':s3:path/',
          { Ref: bucketId },
          key,
        ],
      ],
    });
    const [roleId] = ofType('AWS::IAM::Role').find(([id]) => id.startsWith('SettingsPageReadRole'))!;
    for (const [, method] of pageMethods)
      expect(method.Integration).toMatchObject({
        Type: 'AWS',
        IntegrationHttpMethod: 'GET',
        Credentials: { 'Fn::GetAtt': [roleId, 'Arn'] },
      });
    expect(pageMethod.Integration.Uri).toEqual(s3Path(`/${indexFile}`));
    expect(pageMethod.Integration).not.toHaveProperty('RequestParameters');
    expect(filesMethod.Integration.Uri).toEqual(s3Path('/{proxy}'));
    expect(filesMethod.RequestParameters).toEqual({ 'method.request.path.proxy': true });
    expect(filesMethod.Integration.RequestParameters).toEqual({
      'integration.request.path.proxy': 'method.request.path.proxy',
    });
  });

  test('the role: assumed by API Gateway alone, exactly s3:GetObject on the bucket’s objects', () => {
    const [roleId, role] = ofType('AWS::IAM::Role').find(([id]) => id.startsWith('SettingsPageReadRole'))!;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'apigateway.amazonaws.com' } },
    ]);
    expect(role.Properties).not.toHaveProperty('ManagedPolicyArns');
    expect((role.Properties.Policies as Json[]).map((policy) => policy.PolicyDocument.Statement)).toEqual([
      [{ Action: 's3:GetObject', Effect: 'Allow', Resource: { 'Fn::Join': ['', [bucketArn, '/*']] } }],
    ]);
    const attached = ofType('AWS::IAM::Policy').filter(([, policy]) =>
      (policy.Properties.Roles as Json[]).some((ref) => ref.Ref === roleId),
    );
    expect(attached).toEqual([]);
  });

  test.each(pageMethods)(
    '%s: every answer carries exactly the page’s headers, static, each one declared',
    (_, method) => {
      const integrationResponses = method.Integration.IntegrationResponses as Json[];
      expect(integrationResponses.map((response) => response.StatusCode).sort()).toEqual(['200', '404', '500']);
      const quoted = (headers: Readonly<Record<string, string>>) =>
        Object.fromEntries(Object.entries(headers).map(([name, value]) => [header(name), `'${value}'`]));
      for (const response of integrationResponses) {
        const security = Object.fromEntries(
          Object.entries(response.ResponseParameters as Record<string, string>).filter(([key]) =>
            Object.keys(pageHeaders).some((name) => key === header(name)),
          ),
        );
        expect(security).toEqual(quoted(pageHeaders));
        const others =
          response.StatusCode === '200'
            ? {
                [header('Content-Type')]: 'integration.response.header.Content-Type',
                [header('Cache-Control')]: 'integration.response.header.Cache-Control',
              }
            : quoted(missingFileHeaders);
        expect(response.ResponseParameters).toEqual({ ...quoted(pageHeaders), ...others });
        const declared = (method.MethodResponses as Json[]).find((m) => m.StatusCode === response.StatusCode)!;
        const location = method === pageMethod && response.StatusCode === '200' ? { [header('Location')]: true } : {};
        expect(declared.ResponseParameters).toEqual({
          ...Object.fromEntries(Object.keys(response.ResponseParameters as Json).map((key) => [key, true])),
          ...location,
        });
      }
      // Only the outer pair of quotes is API Gateway's: the policy's own 'self' and 'none' stay.
      expect(staticValue(pageHeaders['Content-Security-Policy']!)).toMatch(/^'default-src 'none';.*'none''$/);
    },
  );

  test.each(pageMethods)('%s: S3’s 4xx (403 for a missing key) is 404, its 5xx 500, anything else 200', (_, method) => {
    const selected = (status: string): string => {
      const match = (method.Integration.IntegrationResponses as Json[]).find(
        (response) =>
          response.SelectionPattern !== undefined &&
          new RegExp(`^(?:${response.SelectionPattern as string})$`).test(status),
      );
      return (match ?? responseOf(method, '200')).StatusCode as string;
    };
    expect(['200', '403', '404', '400', '500', '503'].map(selected)).toEqual([
      '200',
      '404',
      '404',
      '404',
      '500',
      '500',
    ]);
    expect(errorResponses.map((response) => response.statusCode)).toEqual(['404', '500']);
    expect(responseOf(method, '200')).not.toHaveProperty('SelectionPattern');
  });

  test('the errors pass on nothing of S3’s: one template, with no output, so an empty body', () => {
    for (const [, method] of pageMethods)
      for (const status of ['404', '500'])
        expect(responseOf(method, status).ResponseTemplates).toEqual({ [templateMediaType]: emptyBodyTemplate });
    // A VTL comment, a template that is not empty: an empty one would pass S3's body through.
    expect(emptyBodyTemplate).toMatch(/^##[^\n]*$/);
    expect(templateMediaType).not.toBe('application/json');
  });

  test('the files’ 200 passes S3’s bytes on untouched: no template', () => {
    expect(responseOf(filesMethod, '200')).not.toHaveProperty('ResponseTemplates');
  });
});

describe('/app sent to /app/, as the local server does', () => {
  const [okTemplate] = Object.values(responseOf(pageMethod, '200').ResponseTemplates as Record<string, string>);

  test('the page’s 200 has one template, under one media type, so that every request gets it', () => {
    expect(responseOf(pageMethod, '200').ResponseTemplates).toEqual({ [templateMediaType]: pageRedirectTemplate });
  });

  test('with a slash, the page’s bytes as S3 sent them; without, a 301 to the same path with a slash', () => {
    const branches = /^#if\(\$context\.path\.endsWith\('\/'\)\)(.*)#\{else\}(.*)#end$/.exec(okTemplate!);
    expect(branches?.slice(1)).toEqual([
      '$input.body',
      '#set($context.responseOverride.status = 301)#set($context.responseOverride.header.Location = "$context.path/")',
    ]);
    // Overrides are final: each set once ("Override your API's request and response parameters...").
    for (const override of ['responseOverride.status', 'responseOverride.header.Location'])
      expect(okTemplate!.split(override)).toHaveLength(2);
  });

  test('the local server’s redirect carries what AWS’s does: the page’s headers, its type and cache rule, Location', () => {
    const reply = localSettingsPage(pageResourcePaths.page)!;
    const [, indexDeployment] = deploymentOf(indexFile);
    const metadata = indexDeployment.Properties.SystemMetadata as Record<string, string>;
    expect(reply.statusCode).toBe(301);
    expect(reply.body).toHaveLength(0);
    expect(reply.headers).toEqual({
      ...Object.fromEntries(Object.entries(staticHeaders(responseOf(pageMethod, '200'))).map(([k, v]) => [k, [v]])),
      'Content-Type': [metadata['content-type']],
      'Cache-Control': [metadata['cache-control']],
      Location: [pagePath],
    });
  });

  test('the local server’s 404 is AWS’s: the same headers, an empty body', () => {
    const reply = localSettingsPage(`${pagePath}assets/main-INCONNU.js`)!;
    expect(reply.statusCode).toBe(404);
    expect(reply.body).toHaveLength(0);
    expect(reply.headers).toEqual(
      Object.fromEntries(Object.entries(staticHeaders(responseOf(filesMethod, '404'))).map(([k, v]) => [k, [v]])),
    );
  });
});

describe('the bucket and its deployments', () => {
  test('private, TLS only, ACLs off, S3’s own encryption, retained with the stack, replaced pages kept a month', () => {
    expect(resources[bucketId]).toMatchObject({
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        VersioningConfiguration: { Status: 'Enabled' },
        LifecycleConfiguration: {
          Rules: [expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 30 }, Status: 'Enabled' })],
        },
      },
    });
    const [, policy] = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === bucketId)!;
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  test('four deployments of one asset, each kind with its exact type and cache rule, nothing pruned', () => {
    expect(deployments).toHaveLength(pageDeployments.length);
    expect(new Set(deployments.map(([, d]) => JSON.stringify(d.Properties.SourceObjectKeys))).size).toBe(1);
    const expected = [
      { include: 'assets/*.js', type: contentTypes['.js'], cache: assetCacheControl },
      { include: 'assets/*.css', type: contentTypes['.css'], cache: assetCacheControl },
      { include: 'assets/*.svg', type: contentTypes['.svg'], cache: assetCacheControl },
      { include: indexFile, type: contentTypes['.html'], cache: indexCacheControl },
    ];
    for (const { include, type, cache } of expected) {
      const [, deployment] = deploymentOf(include);
      expect(deployment.Properties).toMatchObject({
        DestinationBucketName: { Ref: bucketId },
        Exclude: ['*'],
        Include: [include],
        Prune: false,
        SystemMetadata: { 'content-type': type, 'cache-control': cache },
      });
      // Files stay when a deployment is removed or replaced (RetainOnDelete defaults to true).
      expect(deployment.Properties).not.toHaveProperty('RetainOnDelete');
    }
  });

  test('the page is deployed last, once the files it names are in the bucket', () => {
    const [indexId, index] = deploymentOf(indexFile);
    for (const [id] of deployments.filter(([id]) => id !== indexId)) {
      expect(index.DependsOn).toContain(id);
      expect(resources[id]!.DependsOn ?? []).not.toContain(indexId);
    }
  });

  test('the stack outputs the page’s address: the API’s, then app/', () => {
    const outputs = template.Outputs as Json;
    const [separator, apiParts] = outputs.ApiUrl.Value['Fn::Join'] as [string, unknown[]];
    const [, pageParts] = outputs.SettingsPageUrl.Value['Fn::Join'] as [string, unknown[]];
    expect(separator).toBe('');
    expect(pageParts).toEqual([...apiParts.slice(0, -1), `${apiParts.at(-1) as string}${pagePath.slice(1)}`]);
  });
});

describe('the asset’s bundling', () => {
  const outputDir = mkdtempSync(join(tmpdir(), 'crm-settings-page-'));
  afterAll(() => rmSync(outputDir, { recursive: true, force: true }));
  writeSettingsPage(outputDir);
  const written = readdirSync(outputDir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(outputDir, path)).isFile())
    .sort();

  test('index.html and the hashed script, styles and icon it names, relative to itself', () => {
    expect(written).toHaveLength(4);
    expect(written).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^assets\/main-[A-Z0-9]+\.css$/),
        expect.stringMatching(/^assets\/favicon-[A-Z0-9]+\.svg$/),
        expect.stringMatching(/^assets\/main-[A-Z0-9]+\.js$/),
        indexFile,
      ]),
    );
    const html = readFileSync(join(outputDir, indexFile), 'utf8');
    for (const asset of written.filter((path) => path !== indexFile)) expect(html).toContain(`"${asset}"`);
    expect(html).not.toMatch(/(src|href)="\//);
  });

  test('each written file is uploaded by exactly one deployment, with its own type', () => {
    /** The AWS CLI's filter: `*` matches any characters, `/` included. */
    const matches = (pattern: string, path: string) =>
      new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`).test(path);
    for (const path of written) {
      const uploading = pageDeployments.filter((kind) => matches(kind.include, path));
      expect({ path, uploading: uploading.length }).toEqual({ path, uploading: 1 });
      expect(uploading[0]!.contentType).toBe(
        contentTypes[path.slice(path.lastIndexOf('.')) as keyof typeof contentTypes],
      );
    }
  });
});
