import { type ApiError, timeRange, type WirePatient } from '@dental/shared';
import { formatDay, useMayOpen } from '@dental/shared/kit';
import {
  ActiveTag,
  AppointmentStatusTag,
  Button,
  CalendarOutlined,
  Drawer,
  EditOutlined,
  ErrorBanner,
  Flex,
  OnlineTag,
  Skeleton,
  Tag,
  Tooltip,
  Typography,
  VisuallyHidden,
} from '@dental/shared/ui';
import { Descriptions, Pagination } from '@dental/shared/ui/lists';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { usePatient, usePatientAppointments } from '../api/patients';
import { PatientAccessHistory } from './PatientAccessHistory';
import { PatientRecall } from './PatientRecall';

export interface PatientDetailsProps {
  /** The patient shown (from the URL's `patient`), or null when the drawer is closed. */
  patientId: number | null;
  onClose: () => void;
  onEdit: (patient: WirePatient) => void;
}

/** A patient's file: contact, emergency contact, address, medical history, their appointments and recall. */
export function PatientDetails({ patientId, onClose, onEdit }: PatientDetailsProps) {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const patient = usePatient(patientId);
  const appointments = usePatientAppointments(patientId, page);
  const data = patient.data;
  // Who opened the record is the Audit screen's to show: those who may open it see it here too.
  const mayReadAudit = useMayOpen('/audit');

  return (
    <Drawer
      open={patientId !== null}
      onClose={() => {
        setPage(1);
        onClose();
      }}
      title={data?.name ?? 'Patient'}
      size="min(560px, 100vw)"
      extra={
        data && (
          <Button icon={<EditOutlined />} onClick={() => onEdit(data)}>
            Edit
          </Button>
        )
      }
    >
      <ErrorBanner
        message={patient.error ? (patient.error as ApiError).message : null}
        onRetry={() => void patient.refetch()}
      />
      {patient.isPending && patientId !== null && !patient.error ? (
        <Skeleton active />
      ) : data ? (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Status">
              <ActiveTag active={data.status === 'active'}>{data.status}</ActiveTag>
            </Descriptions.Item>
            <Descriptions.Item label="Date of Birth">
              {data.dateOfBirth ? formatDay(data.dateOfBirth) : 'Not given'}
            </Descriptions.Item>
            <Descriptions.Item label="Phone">{data.phone}</Descriptions.Item>
            <Descriptions.Item label="Email">{data.email ?? 'Not given'}</Descriptions.Item>
            <Descriptions.Item label="Address">{data.address ?? 'Not given'}</Descriptions.Item>
            <Descriptions.Item label="Emergency Contact">
              {data.emergencyContact ?? 'Not given'}
            </Descriptions.Item>
            <Descriptions.Item label="Medical History">
              <span style={{ whiteSpace: 'pre-wrap' }}>{data.medicalHistory ?? 'None recorded'}</span>
            </Descriptions.Item>
            <Descriptions.Item label="Last Visit">
              {data.lastVisit ? formatDay(data.lastVisit) : 'Never'}
            </Descriptions.Item>
          </Descriptions>

          <Flex justify="space-between" align="center" wrap gap={8} style={{ margin: '24px 0 12px' }}>
            <Typography.Title level={4} style={{ margin: 0 }}>
              Appointments
            </Typography.Title>
            <Button
              type="primary"
              icon={<CalendarOutlined />}
              onClick={() => navigate(`/appointments?new=1&patient=${data.id}`)}
            >
              Book appointment
            </Button>
          </Flex>
          <ErrorBanner
            message={appointments.error ? (appointments.error as ApiError).message : null}
            onRetry={() => void appointments.refetch()}
          />
          {appointments.data && appointments.data.data.length === 0 ? (
            <Typography.Text type="secondary">No appointments yet.</Typography.Text>
          ) : (
            <ul
              aria-label={`Appointments of ${data.name}`}
              style={{ listStyle: 'none', margin: 0, padding: 0 }}
            >
              {appointments.data?.data.map((appointment) => (
                <li
                  key={appointment.id}
                  style={{ padding: '8px 0', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }}
                >
                  <Flex justify="space-between" align="start" gap={8}>
                    <span>
                      <strong>
                        {formatDay(appointment.date, true)}{' '}
                        {/* A range is read whole: it never breaks at its dash. */}
                        <span style={{ whiteSpace: 'nowrap' }}>
                          {timeRange(appointment.time, appointment.end_time)}
                        </span>
                      </strong>
                      <br />
                      <Typography.Text type="secondary">
                        {appointment.treatment} with {appointment.dentist_name}
                      </Typography.Text>
                    </span>
                    <Flex wrap justify="end" gap={4}>
                      {appointment.outside_hours && (
                        <Tooltip title={appointment.outside_hours_reason ?? undefined}>
                          <Tag color="purple" style={{ marginInlineEnd: 0 }}>
                            Outside hours
                            {appointment.outside_hours_reason && (
                              <VisuallyHidden>{`: ${appointment.outside_hours_reason}`}</VisuallyHidden>
                            )}
                          </Tag>
                        </Tooltip>
                      )}
                      <OnlineTag appointment={appointment} />
                      <AppointmentStatusTag status={appointment.status} flush />
                    </Flex>
                  </Flex>
                </li>
              ))}
            </ul>
          )}
          {appointments.data && appointments.data.total > appointments.data.limit && (
            <Pagination
              size="small"
              current={page}
              pageSize={appointments.data.limit}
              total={appointments.data.total}
              onChange={setPage}
              showSizeChanger={false}
            />
          )}
          <PatientRecall patientId={data.id} patientName={data.name} />
          {mayReadAudit && <PatientAccessHistory patientId={data.id} />}
        </>
      ) : null}
    </Drawer>
  );
}
