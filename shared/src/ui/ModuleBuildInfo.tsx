import { Card, Descriptions, Typography } from 'antd';

export interface ModuleBuildInfoProps {
  title: string;
  moduleName: string;
  version: string;
  buildTime: string;
}

/** Which module build is serving a screen: release teams read it to confirm what is live. */
export function ModuleBuildInfo({ title, moduleName, version, buildTime }: ModuleBuildInfoProps) {
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      <Card>
        <Typography.Paragraph data-testid="module-loaded">
          Loaded module <strong>{moduleName}</strong> version <strong>{version}</strong>.
        </Typography.Paragraph>
        <Descriptions size="small" column={1}>
          <Descriptions.Item label="Module">{moduleName}</Descriptions.Item>
          <Descriptions.Item label="Version">{version}</Descriptions.Item>
          <Descriptions.Item label="Built">
            <span data-testid="module-build-time">{buildTime}</span>
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </div>
  );
}
