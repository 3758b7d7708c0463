export declare const TEMPLATE_DB: string;
export declare const TEST_USERS: {
  id: string;
  email: string;
  password: string;
  full_name: string;
  is_superuser: boolean;
  user_type: 'regular' | 'technical';
}[];
