console.log('demo coming');
