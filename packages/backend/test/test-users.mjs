// Users present in every test database (created once in the template).
export const TEMPLATE_DB = 'aide_test_template';

export const TEST_USERS = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'admin@test.local',
    password: 'admin-password-1',
    full_name: 'Test Admin',
    is_superuser: true,
    user_type: 'regular',
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    email: 'user@test.local',
    password: 'user-password-1',
    full_name: 'Test User',
    is_superuser: false,
    user_type: 'regular',
  },
];
