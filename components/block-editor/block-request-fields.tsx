// The block and arrow editors' request slot, filled by the request form.
export { RequestForm as BlockRequestFields } from '@/components/request-form/request-form';
