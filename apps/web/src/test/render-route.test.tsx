import { screen } from '@testing-library/react';
import { useParams } from 'react-router-dom';
import { outletStoresSchema } from '@portal/contracts';
import { ApiError, useApi } from '../lib/api';
import { FakeApi, problem, reply } from './fake-api';
import { renderRoute } from './render-route';

function OutletStores() {
  const { outletId } = useParams();
  const { data, error } = useApi(`/outlets/${outletId}/stores`, outletStoresSchema);
  if (error) return <p role="alert">{error instanceof ApiError ? `${error.code}: ${error.message}` : 'failed'}</p>;
  if (!data) return <p>Loading</p>;
  return (
    <ul>
      {data.items.map((s) => (
        <li key={s.id}>{s.name}</li>
      ))}
    </ul>
  );
}

const store = {
  id: 2190,
  warehouseId: 2190,
  name: 'Central City',
  warehouseCode: 'W2190',
  address: '1 Main St',
  city: 'AMES',
  state: 'IA',
  zipCode: '50010',
  phone: null,
  boardNumber: 1,
  boardName: 'Iowa Alcoholic Beverages Division',
  active: true,
};

describe('renderRoute with the fake API', () => {
  it('when the route fetches a declared path, then the fake answers with a body checked by the contracts schema', async () => {
    const api = new FakeApi().on('get', '/outlets/{outletId}/stores', reply(outletStoresSchema, { items: [store] }));
    renderRoute(<OutletStores />, { url: '/outlets/7', path: '/outlets/:outletId', api });
    expect(await screen.findByText('Central City')).toBeInTheDocument();
    expect(api.calls).toEqual([{ method: 'get', url: '/outlets/7/stores', body: undefined }]);
  });

  it('when the fake answers a problem, then the client sees its code and detail', async () => {
    const api = new FakeApi().on('get', '/outlets/{outletId}/stores', problem(404, 'not_found', 'Outlet not found'));
    renderRoute(<OutletStores />, { url: '/outlets/9', path: '/outlets/:outletId', api });
    expect(await screen.findByRole('alert')).toHaveTextContent('not_found: Outlet not found');
  });

  it('when a body does not match the contract, then building the fake answer fails', () => {
    expect(() => reply(outletStoresSchema, { items: [{ ...store, id: 'x' as unknown as number }] })).toThrow();
  });
});
